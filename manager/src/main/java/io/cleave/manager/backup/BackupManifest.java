package io.cleave.manager.backup;

import io.cleave.manager.backup.triggers.TriggerOrEvent;

import java.util.List;

/**
 * What a complete backup holds, written last (so a backup without one is incomplete): the cut it
 * was taken at, the routing (shard map and rules) and config of the home, the accounts, the
 * schema, and every table's chunk files with their checksums and the table's row checksum.
 *
 * @param format     version of this layout
 * @param engine     "logical" (rows read at the cut) or "physical" (server copies rolled forward to the cut)
 * @param cutMillis  when the cut was taken (epoch milliseconds)
 * @param shards     each shard's binlog position at the cut
 * @param shardMap   the shard map at the cut, as {@code state/shard-map.json} holds it
 * @param config     the home's config file as it was
 * @param accounts   statements that make the clients' accounts and grants again
 * @param databases  each database's DDL (the database, its views and routines; tables are in {@code tables})
 * @param sequences  MariaDB sequences with their values, read on the default shard after the cut (empty in
 *                   backups made before they were backed up)
 * @param copies     the physical engine's copy of each shard (empty for a logical backup, whose rows are in
 *                   {@code tables}' chunks; a physical backup's tables hold their rows' count and checksum at
 *                   the cut, and no chunks)
 * @param triggersAndEvents every shard's triggers and events with the shards that held them (a logical backup's;
 *                   empty in a physical one, whose copies hold them, and in backups made before they were backed up)
 */
public record BackupManifest(int format, String id, String engine, String startedAt, String finishedAt, long cutMillis,
                             List<ShardPosition> shards, int shardCount, String serverVersion, String shardMap,
                             String config, List<String> accounts, List<DatabaseDdl> databases, List<TableBackup> tables,
                             long rows, long bytes, long storedBytes, long snapshotMillis,
                             List<SequenceBackup> sequences, List<PhysicalCopy> copies,
                             List<TriggerOrEvent> triggersAndEvents) {

    public static final int FORMAT = 1;
    public static final String LOGICAL = "logical";
    public static final String PHYSICAL = "physical";

    public BackupManifest {
        sequences = sequences == null ? List.of() : List.copyOf(sequences);
        copies = copies == null ? List.of() : List.copyOf(copies);
        triggersAndEvents = triggersAndEvents == null ? List.of() : List.copyOf(triggersAndEvents);
    }

    public boolean physical() {
        return PHYSICAL.equals(engine);
    }

    /**
     * One shard's physical copy: mariadb-backup's mbstream in parts ({@code stream}), and the shard's
     * binlog files from the one in use when the copy began up to the cut's position ({@code binlogs}), from
     * which a restore rolls the prepared copy forward to the cut.
     */
    public record PhysicalCopy(int shard, List<Chunk> stream, List<BinlogFile> binlogs) {
    }

    /** A binlog file as the shard named it, up to the cut's position when it is the cut's file, in parts. */
    public record BinlogFile(String name, List<Chunk> parts) {
    }

    /** A shard's binlog position at the cut: its file, offset and GTID position ({@code null} gtid when none). */
    public record ShardPosition(int shard, String file, long position, String gtid) {
    }

    public record DatabaseDdl(String name, String create, List<String> views, List<String> routines) {
    }

    /**
     * One table: how its rows are placed ({@code rule}: sharded by {@code keyspace}.{@code column},
     * reference, unsharded on {@code home}, or local: each shard's own rows, such as Cleave's
     * decision records), its CREATE TABLE, the columns the chunks hold, its primary key, and its
     * rows' count and checksum (BIT_XOR of each row's CRC32, as the move's verification computes
     * it) over all shards at the cut.
     */
    public record TableBackup(String schema, String table, String rule, String keyspace, String column, int home,
                              String create, List<Column> columns, List<String> primaryKey, long rows, long checksum,
                              List<Chunk> chunks) {
        public String name() {
            return schema + "." + table;
        }
    }

    /** A column the chunks hold; {@code binary} ones are raw bytes, the others text in utf8mb4. */
    public record Column(String name, boolean binary, String type) {
    }

    /** One chunk file: where it is, the shard it came from, its rows, and its size and SHA-256 as stored. */
    public record Chunk(String key, int shard, long rows, long bytes, long storedBytes, String sha256) {
    }

    /**
     * A MariaDB sequence ({@code CREATE SEQUENCE}): its definition and where it stood, read on the
     * default shard (the only copy the proxy draws from) at or after the cut. {@code next} is the
     * server's {@code next_not_cached_value}: every value handed out before comes before it (cached
     * ones included; below it, or above it in a descending sequence), so a sequence restored to start there never hands out a value used before the cut.
     * {@code round} is its {@code cycle_count}.
     */
    public record SequenceBackup(String schema, String name, String create, long next, long round) {
        public String qualifiedName() {
            return schema + "." + name;
        }
    }
}
