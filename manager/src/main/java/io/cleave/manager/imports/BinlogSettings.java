package io.cleave.manager.imports;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Whether a source writes the row binlog an import follows, and if not, exactly what to change:
 * {@code log_bin} on with a {@code server_id}, {@code binlog_format=ROW}, {@code binlog_row_image=FULL}.
 */
final class BinlogSettings {

    private BinlogSettings() {
    }

    /** What is wrong with the source's binlog, as one message naming every setting to change; null when it will do. */
    static String problem(Connection source) throws SQLException {
        String logBin;
        String format;
        String image;
        long serverId;
        try (Statement s = source.createStatement();
             ResultSet rs = s.executeQuery("SELECT @@GLOBAL.log_bin, @@GLOBAL.binlog_format, @@GLOBAL.binlog_row_image,"
                     + " @@GLOBAL.server_id")) {
            rs.next();
            logBin = rs.getString(1);
            format = rs.getString(2);
            image = rs.getString(3);
            serverId = rs.getLong(4);
        }
        List<String> changes = new ArrayList<>();
        if (!"1".equals(logBin) && !"ON".equalsIgnoreCase(logBin)) {
            changes.add("log_bin is OFF: start the server with the binlog on (log_bin = mysql-bin in the [mysqld] section"
                    + " of its my.cnf; this needs a restart)");
        }
        if (serverId == 0) {
            changes.add("server_id is 0: give it a server_id (server_id = 1 in my.cnf, or SET GLOBAL server_id = 1)");
        }
        if (format == null || !format.toUpperCase(Locale.ROOT).equals("ROW")) {
            changes.add("binlog_format is " + format + ": SET GLOBAL binlog_format = 'ROW' and binlog_format = ROW in"
                    + " my.cnf (sessions already connected keep the old format until they reconnect)");
        }
        if (image != null && !image.toUpperCase(Locale.ROOT).equals("FULL")) {
            changes.add("binlog_row_image is " + image + ": SET GLOBAL binlog_row_image = 'FULL' and binlog_row_image ="
                    + " FULL in my.cnf");
        }
        if (changes.isEmpty()) {
            return null;
        }
        return "the source must write a row binlog, which the import follows while it copies: "
                + String.join("; ", changes);
    }
}
