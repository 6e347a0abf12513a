package io.cleave.proxy.cut;

import io.cleave.proxy.accounts.CleaveSchema;
import java.util.List;
import java.util.Locale;

/** The statements that open a cut's snapshots on a shard, and read where its binlog stood. */
public final class SnapshotStatements {

    /**
     * Opens a snapshot for reading: REPEATABLE READ for this transaction (WITH CONSISTENT SNAPSHOT
     * means nothing at another level), whatever the session's level; the second statement alone when
     * the session's level is REPEATABLE READ already.
     */
    public static final List<String> READ = List.of("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ",
            "START TRANSACTION WITH CONSISTENT SNAPSHOT");

    /**
     * Opens the read view of an XA branch (XA START takes no WITH CONSISTENT SNAPSHOT: InnoDB opens
     * a branch's view at its first consistent read). A table every shard has and every account may
     * read (it runs on the client's connection), read without locks.
     */
    public static final String OPEN_READ_VIEW = "SELECT 1 FROM " + CleaveSchema.READ_VIEW + " LIMIT 1";

    /**
     * The snapshot's binlog file and position (MariaDB's binlog_snapshot_*, which belong to the
     * snapshot, not to the binlog's current end) and the GTID position there.
     */
    public static final String POSITION = "SELECT f.VARIABLE_VALUE, p.VARIABLE_VALUE,"
            + " BINLOG_GTID_POS(f.VARIABLE_VALUE, p.VARIABLE_VALUE)"
            + " FROM information_schema.SESSION_STATUS f JOIN information_schema.SESSION_STATUS p"
            + " WHERE f.VARIABLE_NAME = 'BINLOG_SNAPSHOT_FILE' AND p.VARIABLE_NAME = 'BINLOG_SNAPSHOT_POSITION'";

    private SnapshotStatements() {
    }

    /**
     * {@code begin} (a client's START TRANSACTION ..., BEGIN, or null for a transaction autocommit
     * off opened) made to open its snapshot at once, keeping its other characteristics.
     */
    public static String withConsistentSnapshot(String begin) {
        String upper = begin == null ? "" : begin.toUpperCase(Locale.ROOT);
        if (upper.contains("WITH CONSISTENT SNAPSHOT")) {
            return begin;
        }
        if (!upper.startsWith("START TRANSACTION ")) {
            return "START TRANSACTION WITH CONSISTENT SNAPSHOT";
        }
        return "START TRANSACTION WITH CONSISTENT SNAPSHOT, " + begin.substring("START TRANSACTION ".length());
    }

    /** A binlog position from the three values {@link #POSITION} reads, or null when the server has none. */
    public static BinlogPosition position(String file, String position, String gtid) {
        if (file == null || file.isEmpty() || position == null) {
            return null;
        }
        try {
            return new BinlogPosition(file, Long.parseLong(position.trim()), gtid == null || gtid.isEmpty() ? null : gtid);
        } catch (NumberFormatException e) {
            return null;
        }
    }
}
