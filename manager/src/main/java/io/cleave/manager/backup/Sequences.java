package io.cleave.manager.backup;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * MariaDB sequences in backups. The proxy makes every sequence on every shard but draws from the
 * default shard's copy only, so a backup reads that copy's definition and {@code next_not_cached_value}
 * after its cut (a sequence only moves forward, so a value read later is never one already handed out
 * at the cut: a restore may skip values, as a server restarted with a cache does, never repeat one),
 * and a restore makes the sequence on every shard starting there. Servers without sequences (MySQL)
 * list none.
 */
public final class Sequences {

    private Sequences() {
    }

    /** Every sequence of {@code databases} on the shard {@code c} reaches, with where it stands now. */
    static List<BackupManifest.SequenceBackup> read(Connection c, List<String> databases) throws SQLException {
        List<BackupManifest.SequenceBackup> out = new ArrayList<>();
        for (String db : databases) {
            for (String[] row : SchemaReader.rows(c, "SELECT TABLE_NAME FROM information_schema.TABLES WHERE TABLE_SCHEMA = ?"
                    + " AND TABLE_TYPE = 'SEQUENCE' ORDER BY TABLE_NAME", db)) {
                String name = SchemaReader.quote(db) + "." + SchemaReader.quote(row[0]);
                String create;
                try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW CREATE SEQUENCE " + name)) {
                    if (!rs.next()) {
                        throw new SQLException("SHOW CREATE SEQUENCE " + name + " returned nothing");
                    }
                    create = rs.getString(2);
                }
                long[] state = state(c, db, row[0]);
                out.add(new BackupManifest.SequenceBackup(db, row[0], create, state[0], state[1]));
            }
        }
        return out;
    }

    /** A sequence's {@code next_not_cached_value} and {@code cycle_count} as the server holds them now. */
    public static long[] state(Connection c, String schema, String name) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT next_not_cached_value, cycle_count"
                + " FROM " + SchemaReader.quote(schema) + "." + SchemaReader.quote(name))) {
            if (!rs.next()) {
                throw new SQLException("sequence " + schema + "." + name + " has no row");
            }
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }

    /**
     * Makes {@code sequence} with {@code s} (in its database) and sets it so that its next value is the
     * one it would have handed out next at the backup (SETVAL with is_used 0; past its end it stays run out).
     */
    public static void restore(Statement s, BackupManifest.SequenceBackup sequence) throws SQLException {
        s.execute("USE " + SchemaReader.quote(sequence.schema()));
        s.execute(sequence.create());
        try (ResultSet rs = s.executeQuery("SELECT SETVAL(" + SchemaReader.quote(sequence.name()) + ", " + sequence.next()
                + ", 0, " + sequence.round() + ")")) {
            rs.next();
        }
        // SETVAL ignores a value behind where the sequence stands: a restored sequence must stand exactly there.
        long[] now = state(s.getConnection(), sequence.schema(), sequence.name());
        if (now[0] != sequence.next() || now[1] != sequence.round()) {
            throw new SQLException("sequence " + sequence.qualifiedName() + " made by \"" + sequence.create()
                    + "\" stands at " + now[0] + " (round " + now[1] + "), not at " + sequence.next() + " (round "
                    + sequence.round() + ") as the backup read it");
        }
    }
}
