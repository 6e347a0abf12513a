package io.cleave.manager.standby;

import io.cleave.manager.backup.restore.PreparedGroups;
import io.cleave.manager.move.ShardLinks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * On the primary: the XA transactions each shard had prepared and not yet committed at a cut, read from
 * the shard's own binlog files (the cut's file and the one before it: a branch is prepared milliseconds
 * before its decision, so an older one is one recovery has left in doubt, which the seed's check then
 * finds and the seed is taken again).
 */
final class PreparedAtCut {

    private PreparedAtCut() {
    }

    static List<PendingPrepare> find(ShardLinks links, List<CutPosition> cut) throws SQLException, IOException {
        List<PendingPrepare> out = new ArrayList<>();
        for (CutPosition p : cut) {
            Path base;
            try (Connection c = links.open(p.shard()); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT @@GLOBAL.log_bin_basename")) {
                rs.next();
                base = Path.of(rs.getString(1));
            }
            Path cutFile = base.resolveSibling(p.file());
            List<String> names = new ArrayList<>();
            String previous = previousFile(p.file());
            if (previous != null && Files.exists(base.resolveSibling(previous))) {
                names.add(previous);
            }
            names.add(p.file());
            List<byte[]> contents = new ArrayList<>();
            for (String name : names) {
                contents.add(name.equals(p.file()) ? Files.readAllBytes(cutFile) : Files.readAllBytes(base.resolveSibling(name)));
            }
            for (PreparedGroups.Group g : PreparedGroups.pendingAt(contents, names.size() - 1, p.position())) {
                out.add(new PendingPrepare(p.shard(), g.xid(), names.get(g.fileIndex()), g.start(), g.end()));
            }
        }
        return out;
    }

    /** {@code binlog.000007} -> {@code binlog.000006}; null for the first. */
    static String previousFile(String file) {
        int dot = file.lastIndexOf('.');
        String digits = file.substring(dot + 1);
        long n = Long.parseLong(digits);
        if (n <= 1) {
            return null;
        }
        return file.substring(0, dot + 1) + String.format("%0" + digits.length() + "d", n - 1);
    }
}
