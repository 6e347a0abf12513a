package io.cleave.manager.backup.restore;

import io.cleave.manager.backup.BackupManifest;
import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.move.Sql;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Checks a restored home against a backup's manifest: every table's rows, counted and checksummed
 * on the shards its rule puts them on (BIT_XOR of each row's CRC32, as the backup computed it while
 * reading), must equal what the backup read at its cut. A sharded table's rows are summed over every
 * shard (so it holds restored into another shard count too); each copy of a reference table must
 * equal the whole.
 */
final class TableChecksums {

    /** One table's result: what the backup read, what the restored home holds, and whether they agree. */
    record Check(String table, long expectedRows, long rows, long expectedChecksum, long checksum, String problem) {
        boolean ok() {
            return problem == null;
        }
    }

    private TableChecksums() {
    }

    static List<Check> verify(ShardLinks links, int shards, List<BackupManifest.TableBackup> tables, boolean sameShards)
            throws SQLException {
        List<Connection> connections = new ArrayList<>();
        try {
            for (int s = 0; s < shards; s++) {
                try {
                    Connection c = links.open(s);
                    connections.add(c);
                    try (Statement st = c.createStatement()) {
                        st.execute("SET time_zone = '+00:00'");
                        st.execute("SET NAMES utf8mb4");
                    }
                } catch (SQLException e) { // the driver's text names no shard
                    throw new SQLException("checking the tables on shard " + s + ": " + e.getMessage(), e.getSQLState(),
                            e.getErrorCode(), e);
                }
            }
            List<Check> out = new ArrayList<>();
            for (BackupManifest.TableBackup t : tables) {
                if (t.rule().equals("local") && !sameShards) {
                    continue; // each shard's own rows: not carried into another shard count
                }
                String sql = "SELECT " + Sql.checksum(t.columns().stream().map(BackupManifest.Column::name).toList())
                        + " FROM " + Sql.quote(t.schema()) + "." + Sql.quote(t.table());
                long rows = 0;
                long sum = 0;
                String problem = null;
                for (int s = 0; s < shards; s++) {
                    if (t.rule().equals("unsharded") && s != t.home()) {
                        continue;
                    }
                    long[] here = read(connections.get(s), sql);
                    if (t.rule().equals("reference")) {
                        if (here[0] != t.rows() || here[1] != t.checksum()) {
                            problem = "the copy on shard " + s + " has " + here[0] + " rows, checksum " + here[1];
                        }
                        rows = here[0];
                        sum = here[1];
                    } else {
                        rows += here[0];
                        sum ^= here[1];
                    }
                }
                if (problem == null && (rows != t.rows() || sum != t.checksum())) {
                    problem = "restored " + rows + " rows with checksum " + sum + ", the backup read " + t.rows()
                            + " rows with checksum " + t.checksum();
                }
                out.add(new Check(t.name(), t.rows(), rows, t.checksum(), sum, problem));
            }
            return out;
        } finally {
            for (Connection c : connections) {
                c.close();
            }
        }
    }

    private static long[] read(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }
}
