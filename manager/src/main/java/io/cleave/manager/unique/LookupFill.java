package io.cleave.manager.unique;

import io.cleave.manager.move.Sql;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.unique.LookupPlacement;
import io.cleave.router.unique.UniqueIndex;

import java.sql.BatchUpdateException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * The lookups of the global unique keys of tables a move makes sharded, built inside the move's
 * cutover, while every statement that could reach the table is held: nothing writes the rows, so
 * one read of them fills each lookup completely, and the key is registered in the catalog before
 * the new shard map is published. From the first statement after the cutover on, every write
 * claims the key's values and every read by it is routed, as for a table created with the key:
 * there is no moment at which the table is sharded and the key not enforced. The cost is the
 * clients' pause, which grows with the table's rows (see README, "Sharding a table online").
 *
 * <p>Registration order, for a daemon killed at any point: lookups made empty before the hold
 * ({@link #prepare}) and filled in it, then the catalog row
 * and a row in {@code cleave.unique_key_builds} in one transaction, then the proxy told, then the
 * map flip; the builds row is deleted once the move goes on after the flip ({@link #complete}).
 * Killed before the flip, the move's cutover runs again and makes the lookups anew; killed after
 * it, the key is loaded as unfinished (writes to the table refused, {@code cleave shards} says
 * {@code building}) until the resumed move completes it.
 */
public final class LookupFill {

    /** Lookup rows sent per batch to one shard. */
    private static final int BATCH = 1_000;

    /** Connections to the shards that hold lookups. */
    public interface Shards {
        Connection open(int shard) throws SQLException;
    }

    /** The rows hold a value twice (as the key's collation compares): the key cannot be enforced. */
    public static final class Duplicates extends SQLException {
        public Duplicates(String message) {
            super(message, "23000", 1062);
        }
    }

    private LookupFill() {
    }

    /**
     * Makes each key's lookup table again, empty, on every shard it is spread over: before each
     * cutover attempt, outside the hold (no client reads a lookup before its key is registered), so
     * the hold pays for the rows only and a half-filled lookup of a failed attempt is gone.
     */
    public static void prepare(List<MovedKey> keys, Shards shards) throws SQLException {
        for (MovedKey key : keys) {
            for (int s = 0; s < key.index().lookupShards(); s++) {
                try (Connection c = shards.open(s); Statement st = c.createStatement()) {
                    st.execute("DROP TABLE IF EXISTS " + key.index().qualifiedLookup());
                    st.execute(key.createLookup());
                }
            }
        }
    }

    /**
     * Fills each key's lookup, made empty by {@link #prepare}, from the table's rows on {@code
     * source} (held: nothing changes them). Returns the lookup rows written.
     */
    public static long fill(Connection source, List<MovedKey> keys, Shards shards) throws SQLException {
        long written = 0;
        for (MovedKey key : keys) {
            UniqueIndex index = key.index();
            List<Connection> lookups = new ArrayList<>();
            List<PreparedStatement> inserts = new ArrayList<>();
            try {
                for (int s = 0; s < index.lookupShards(); s++) {
                    Connection c = shards.open(s);
                    lookups.add(c);
                    inserts.add(c.prepareStatement(insert(index)));
                }
                written += copy(source, key, inserts);
            } catch (BatchUpdateException e) {
                if (e.getErrorCode() != 1062) {
                    throw e;
                }
                List<String> found = key.duplicates(source, 10);
                throw new Duplicates(key.duplicatesRefusal(found.isEmpty() ? List.of(e.getMessage()) : found));
            } finally {
                for (Connection c : lookups) {
                    c.close();
                }
            }
        }
        return written;
    }

    /** Registers the keys in the catalog on the default shard, each with a builds row until {@link #complete}. */
    public static void register(Connection home, List<MovedKey> keys) throws SQLException {
        if (keys.isEmpty()) {
            return;
        }
        home.setAutoCommit(false);
        try (Statement st = home.createStatement()) {
            for (MovedKey key : keys) {
                st.execute("REPLACE INTO cleave.unique_keys VALUES "
                        + io.cleave.proxy.unique.UniqueIndexes.catalogValues(key.index(), Sql::string));
                st.execute("REPLACE INTO cleave.unique_key_builds VALUES (" + keyRow(key.index()) + ")");
            }
            home.commit();
        } catch (SQLException e) {
            home.rollback();
            throw e;
        } finally {
            home.setAutoCommit(true);
        }
    }

    /** The table is sharded: the keys' builds rows go and the proxy enforces them fully. Idempotent. */
    public static void complete(Connection home, List<MovedKey> keys, KeyRegistry registry) throws SQLException {
        for (MovedKey key : keys) {
            registry.complete(key.index());
        }
        try (Statement st = home.createStatement()) {
            for (MovedKey key : keys) {
                st.execute("DELETE FROM cleave.unique_key_builds WHERE " + keyWhere(key.index()));
            }
        }
    }

    /** The move was undone before its cutover: the keys' catalog rows and lookups go. Idempotent. */
    public static void drop(Connection home, List<MovedKey> keys, Shards shards, KeyRegistry registry) throws SQLException {
        for (MovedKey key : keys) {
            registry.dropped(key.index());
            try (Statement st = home.createStatement()) {
                st.execute("DELETE FROM cleave.unique_keys WHERE " + keyWhere(key.index()));
                st.execute("DELETE FROM cleave.unique_key_builds WHERE " + keyWhere(key.index()));
            }
            for (int s = 0; s < key.index().lookupShards(); s++) {
                try (Connection c = shards.open(s); Statement st = c.createStatement()) {
                    st.execute("DROP TABLE IF EXISTS " + key.index().qualifiedLookup());
                }
            }
        }
    }

    /** Reads the key's values with their rows' sharding keys and sends each to its lookup shard. */
    private static long copy(Connection source, MovedKey key, List<PreparedStatement> inserts) throws SQLException {
        UniqueIndex index = key.index();
        int n = index.columns().size();
        StringBuilder select = new StringBuilder("SELECT ");
        StringBuilder notNull = new StringBuilder();
        for (String column : index.columns()) {
            select.append(Sql.quote(column)).append(", ");
            notNull.append(notNull.length() == 0 ? "" : " AND ").append(Sql.quote(column)).append(" IS NOT NULL");
        }
        select.append(Sql.quote(index.shardingColumn())).append(" FROM ").append(Sql.quote(index.schema())).append('.')
                .append(Sql.quote(index.table())).append(" WHERE ").append(notNull);
        int[] pending = new int[inserts.size()];
        long rows = 0;
        List<ShardKey> placement = new ArrayList<>(n);
        try (Statement st = source.createStatement(ResultSet.TYPE_FORWARD_ONLY, ResultSet.CONCUR_READ_ONLY)) {
            st.setFetchSize(Integer.MIN_VALUE); // streamed: the table may not fit in memory
            try (ResultSet rs = st.executeQuery(select.toString())) {
                while (rs.next()) {
                    placement.clear();
                    for (int c = 0; c < n; c++) {
                        KeyType type = index.types().get(c);
                        placement.add(type == null ? null : type == KeyType.INTEGER ? ShardKey.of(rs.getLong(c + 1))
                                : ShardKey.ofString(rs.getString(c + 1)));
                    }
                    int shard = LookupPlacement.shardOf(index, placement);
                    PreparedStatement insert = inserts.get(shard);
                    for (int c = 1; c <= n + 1; c++) {
                        insert.setObject(c, rs.getObject(c));
                    }
                    insert.addBatch();
                    rows++;
                    if (++pending[shard] == BATCH) {
                        insert.executeBatch();
                        pending[shard] = 0;
                    }
                }
            }
        }
        for (int s = 0; s < inserts.size(); s++) {
            if (pending[s] > 0) {
                inserts.get(s).executeBatch();
            }
        }
        return rows;
    }

    private static String insert(UniqueIndex index) {
        StringBuilder s = new StringBuilder("INSERT INTO ").append(index.qualifiedLookup()).append(" (");
        StringBuilder marks = new StringBuilder();
        for (String column : index.columns()) {
            s.append(Sql.quote(column)).append(", ");
            marks.append("?, ");
        }
        return s.append(UniqueIndex.KEY_COLUMN).append(") VALUES (").append(marks).append("?)").toString();
    }

    private static String keyRow(UniqueIndex index) {
        return Sql.string(index.schema()) + ", " + Sql.string(index.table()) + ", " + Sql.string(index.name());
    }

    private static String keyWhere(UniqueIndex index) {
        return "schema_name = " + Sql.string(index.schema()) + " AND table_name = " + Sql.string(index.table())
                + " AND key_name = " + Sql.string(index.name());
    }
}
