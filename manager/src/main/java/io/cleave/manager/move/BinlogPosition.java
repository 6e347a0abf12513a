package io.cleave.manager.move;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/** A place in a shard's binlog; files sort by name (the server numbers them with leading zeros). */
record BinlogPosition(String file, long position) implements Comparable<BinlogPosition> {

    @Override
    public int compareTo(BinlogPosition o) {
        int byFile = file.compareTo(o.file);
        return byFile != 0 ? byFile : Long.compare(position, o.position);
    }

    /** The end of the shard's binlog now. */
    static BinlogPosition current(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW MASTER STATUS")) {
            if (!rs.next()) {
                throw new SQLException("the shard has no binlog (log_bin is off): moves need its row binlog");
            }
            return new BinlogPosition(rs.getString(1), rs.getLong(2));
        }
    }

    @Override
    public String toString() {
        return file + ":" + position;
    }
}
