package io.cleave.manager.coordination;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The transactions an old primary holds that the new one lacks, found from MariaDB's GTID positions: the
 * old primary's last GTID per domain ({@code @@gtid_binlog_pos}) against what the new primary has of each
 * (domain, server) pair, in its binlog ({@code @@gtid_binlog_state}) or as the position it replicated up to
 * ({@code @@gtid_slave_pos}). Under gtid_strict_mode a server's sequence numbers in a domain only grow, so
 * the new primary holds the old one's GTID d-s-n exactly when it holds d-s-m with m >= n.
 * <p>
 * Such transactions were never acknowledged (semi-sync waited for the standby, which never got them), yet
 * they are in the old primary's data: it cannot replicate from the new one until it is rebuilt.
 */
public final class ErrantTransactions {

    private ErrantTransactions() {
    }

    /**
     * The old primary's GTIDs the new one lacks, each described with what the new one has of that server, e.g.
     * {@code "0-1000-2741 (the new primary has up to 0-1000-2739)"}; empty when it holds them all.
     */
    public static List<String> of(String oldBinlogPos, String newBinlogState, String newSlavePos) {
        Map<String, Long> held = new HashMap<>();
        for (String list : new String[] {newBinlogState, newSlavePos}) {
            for (Gtid g : parse(list)) {
                held.merge(g.domain() + "-" + g.server(), g.sequence(), Math::max);
            }
        }
        List<String> errant = new ArrayList<>();
        for (Gtid g : parse(oldBinlogPos)) {
            Long has = held.get(g.domain() + "-" + g.server());
            if (has == null || has < g.sequence()) {
                errant.add(g + (has == null ? " (the new primary has nothing of server " + g.server() + " in domain "
                        + g.domain() + ")" : " (the new primary has up to " + g.domain() + "-" + g.server() + "-" + has + ")"));
            }
        }
        return errant;
    }

    private record Gtid(long domain, long server, long sequence) {
        @Override
        public String toString() {
            return domain + "-" + server + "-" + sequence;
        }
    }

    private static List<Gtid> parse(String list) {
        List<Gtid> out = new ArrayList<>();
        if (list == null || list.isBlank()) {
            return out;
        }
        for (String item : list.split(",")) {
            String[] parts = item.trim().split("-");
            if (parts.length != 3) {
                throw new IllegalArgumentException("'" + item + "' is not a GTID (domain-server-sequence)");
            }
            out.add(new Gtid(Long.parseLong(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2])));
        }
        return out;
    }
}
