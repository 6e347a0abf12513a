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

    /** The end of the server's binlog now. */
    static BinlogPosition current(Connection c) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = status(s)) {
            if (!rs.next()) {
                throw new SQLException("the server has no binlog (log_bin is off): moves need its row binlog");
            }
            return new BinlogPosition(rs.getString(1), rs.getLong(2));
        }
    }

    /** SHOW MASTER STATUS, or SHOW BINARY LOG STATUS on MySQL 8.4 and later, which dropped the first. */
    private static ResultSet status(Statement s) throws SQLException {
        try {
            return s.executeQuery("SHOW MASTER STATUS");
        } catch (SQLException e) {
            if (e.getErrorCode() != 1064) {
                throw e;
            }
            return s.executeQuery("SHOW BINARY LOG STATUS");
        }
    }

    @Override
    public String toString() {
        return file + ":" + position;
    }
}
