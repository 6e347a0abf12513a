package io.cleave.proxy.frontend;

import io.cleave.proxy.cutover.Participant;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.unique.UniqueIndexes;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.unique.LookupPlacement;
import io.cleave.router.unique.UniqueIndex;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The lookup of a global unique key added to a table that already has rows (CREATE UNIQUE INDEX,
 * or ALTER TABLE ... ADD UNIQUE | PRIMARY KEY), built while clients write. Before the shards add the index, the lookup table and the key's
 * catalog rows are written (with a row in {@code cleave.unique_key_builds}: a build a crash
 * interrupts leaves its table refusing writes, never the key unenforced) and the key is registered
 * as being built: from then on every write claims its values, as for any global unique key, and no
 * read is routed by it. Once every command that was running at registration has ended, each
 * shard's rows are read in primary-key order, in chunks under shared locks (a row a transaction
 * is still writing is waited for), and their values are claimed in the lookup. A value whose
 * lookup row names another key is checked on every shard: held by rows of two keys, the build
 * stops, the index (and every other index the statement added) is dropped again and the statement
 * fails with the server's 1062; held by one,
 * the lookup row is pointed at it. A build refuses to start while a move runs, and moves wait for
 * builds (a row changing shards during the scan could be missed).
 */
final class UniqueBuild {

    /** Rows read per chunk: small enough that the shared locks are short, large enough to be quick. */
    private static final int CHUNK = 500;
    /** Times a value's lookup row is re-pointed before the build gives up (writers keep changing it). */
    private static final int RETRIES = 10;
    private static final long BARRIER_POLL_MS = 5;

    private final Session session;
    private final UniqueIndex index;
    private final String qualifiedTable;
    private final List<String> primaryKey;
    /** The indexes the statement adds (the key among them): dropped again when the key is not built. */
    private final List<String> added;
    /** Lower-case column name to its DATA_TYPE. */
    private final Map<String, String> dataTypes;
    private final int shards;
    private final int home;
    private static final org.slf4j.Logger log = org.slf4j.LoggerFactory.getLogger(UniqueBuild.class);

    /** Rows read and values checked against other shards so far, and when the scan started (for the log). */
    private long rowsRead;
    private long valuesChecked;
    private long startedNanos;
    /** Registered as being built ({@link UniqueIndexes#startBuild}): its end is told to the registry. */
    private boolean registered;

    private UniqueBuild(Session session, UniqueIndex index, List<String> primaryKey, List<String> added,
                        Map<String, String> dataTypes) {
        this.session = session;
        this.index = index;
        this.added = List.copyOf(added);
        this.qualifiedTable = SqlLiterals.identifier(index.schema()) + "." + SqlLiterals.identifier(index.table());
        this.primaryKey = primaryKey;
        this.dataTypes = dataTypes;
        this.shards = session.runtime().shardMaps().current().shardCount();
        this.home = session.runtime().topology().defaultShard();
    }

    UniqueIndex index() {
        return index;
    }

    /**
     * Before the shards add the index: its lookup table, catalog rows and registration. {@code then}
     * gets the build (null when the index needs none: a prefix or expression key stays per shard);
     * {@code refused} gets why it may not be added.
     */
    static void prepare(Session session, UniqueIndex index, List<String[]> columnTypes, List<String> primaryKey,
                        List<String> added, Map<String, String> dataTypes, String[] keyType, Consumer<UniqueBuild> then,
                        Consumer<ErrPacket> refused) {
        UniqueBuild build = new UniqueBuild(session, index, primaryKey, added, dataTypes);
        List<byte[]> ddl = List.of(bytes("DROP TABLE IF EXISTS " + index.qualifiedLookup()),
                bytes(io.cleave.router.unique.LookupTable.create(index, columnTypes, keyType)));
        build.onEveryShard(ddl, created -> {
            if (created != null) {
                refused.accept(created);
                return;
            }
            List<byte[]> catalog = List.of(bytes("BEGIN"),
                    bytes("REPLACE INTO cleave.unique_keys VALUES " + UniqueIndexes.catalogValues(index, SqlLiterals::string)),
                    bytes("REPLACE INTO cleave.unique_key_builds VALUES (" + build.keyRow() + ")"), bytes("COMMIT"));
            build.on(build.home, catalog, stored -> {
                if (stored != null) {
                    build.forget(() -> refused.accept(stored));
                    return;
                }
                // A move's ghost rows (copies not yet cleaned up) would be read as rows of their keys.
                String busy = session.runtime().shardMaps().current().ghosts().isEmpty()
                        ? session.runtime().uniqueIndexes().startBuild(index)
                        : "a move's old rows are still being cleaned up; add the key once that is done";
                if (busy != null) {
                    build.forget(() -> refused.accept(new ErrPacket(1235, "42000", "adding the unique key " + index.name()
                            + " to " + index.table() + " is refused for now: " + busy)));
                    return;
                }
                build.registered = true;
                then.accept(build);
            });
        });
    }

    /** Every shard added the index: fills the lookup from the rows, then {@code done} gets null or the error. */
    void run(Consumer<ErrPacket> done) {
        startedNanos = System.nanoTime();
        awaitRunningCommands(() -> io.cleave.proxy.unique.UniqueHooks.buildScanning(session.loop().loop(),
                () -> scan(0, null, error -> scanned(error, done))));
    }

    private void scanned(ErrPacket error, Consumer<ErrPacket> done) {
        if (error != null) {
            undo(() -> done.accept(error));
            return;
        }
        on(home, List.of(bytes("DELETE FROM cleave.unique_key_builds WHERE " + keyWhere())), cleared -> {
            // Should the row stay (the default shard failed just now), the next start refuses writes to the
            // table until the key is added again: safe, if not kind. The key is complete now.
            session.runtime().uniqueIndexes().endBuild(index, true);
            log.info("lookup of the global unique key {} built: {} rows read on {} shards, {} values checked on every"
                    + " shard, in {} ms", index, rowsRead, shards, valuesChecked,
                    TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - startedNanos));
            done.accept(null);
        });
    }

    /**
     * The shards did not all add the index: it is dropped where it was added, with the statement's
     * other new indexes and the lookup.
     */
    void abandon(Runnable then) {
        undo(then);
    }

    /** The index stays per shard (a prefix of a column): the lookup and catalog rows go, the key is not global. */
    void release(Runnable then) {
        forget(then);
    }

    private void undo(Runnable then) {
        // One statement per index, each sent even when one before it fails (a shard that lacks the index).
        List<byte[]> drops = new ArrayList<>();
        for (String name : added) {
            drops.add(bytes("DROP INDEX " + SqlLiterals.identifier(name) + " ON " + qualifiedTable));
        }
        MultiExchange multi = new MultiExchange(new SystemContext(session.loop()), false, results -> forget(then));
        for (int s = 0; s < shards; s++) {
            multi.leg(s, drops);
        }
        multi.start();
    }

    /** Drops the lookup and the catalog rows, and the registration. */
    private void forget(Runnable then) {
        List<byte[]> drops = List.of(bytes("DROP TABLE IF EXISTS " + index.qualifiedLookup()));
        MultiExchange multi = new MultiExchange(new SystemContext(session.loop()), false, results -> {
            boolean clean = results.stream().allMatch(LegResult::ok);
            if (registered) {
                session.runtime().uniqueIndexes().endBuild(index, false);
            }
            if (!clean) {
                // The catalog still lists the key as being built: the next start refuses writes to the table.
                session.runtime().uniqueIndexes().interrupt(index);
            }
            then.run();
        });
        for (int s = 0; s < shards; s++) {
            List<byte[]> statements = new ArrayList<>(drops);
            if (s == home) {
                statements.add(0, bytes("DELETE FROM cleave.unique_key_builds WHERE " + keyWhere()));
                statements.add(0, bytes("DELETE FROM cleave.unique_keys WHERE " + keyWhere()));
            }
            multi.leg(s, statements);
        }
        multi.start();
    }

    /**
     * Runs {@code then} once every command other sessions were running has ended: a statement
     * planned before the key was registered does not claim its values, and its rows must be in
     * place (or locked by their transaction) before the scan reads.
     */
    private void awaitRunningCommands(Runnable then) {
        List<Participant> participants = new ArrayList<>(session.runtime().cutover().participants());
        Map<Participant, Long> running = new java.util.concurrent.ConcurrentHashMap<>();
        AtomicInteger pending = new AtomicInteger(participants.size() + 1);
        Runnable counted = () -> {
            if (pending.decrementAndGet() == 0) {
                session.loop().loop().execute(() -> pollRunning(running, then));
            }
        };
        for (Participant p : participants) {
            if (p instanceof SessionParticipant sp && sp.session() == session) {
                counted.run();
                continue;
            }
            p.eventLoop().execute(() -> {
                if (p.busy()) {
                    running.put(p, p.commandSerial());
                }
                counted.run();
            });
        }
        counted.run();
    }

    private void pollRunning(Map<Participant, Long> running, Runnable then) {
        Set<Participant> live = session.runtime().cutover().participants();
        running.keySet().removeIf(p -> !live.contains(p));
        if (running.isEmpty()) {
            then.run();
            return;
        }
        AtomicInteger pending = new AtomicInteger(running.size());
        for (Map.Entry<Participant, Long> e : running.entrySet()) {
            Participant p = e.getKey();
            p.eventLoop().execute(() -> {
                if (!p.busy() || p.commandSerial() != e.getValue()) {
                    running.remove(p);
                }
                if (pending.decrementAndGet() == 0) {
                    session.loop().loop().schedule(() -> pollRunning(running, then), BARRIER_POLL_MS,
                            TimeUnit.MILLISECONDS);
                }
            });
        }
    }

    /** Claims the values of shard {@code shard}'s rows after primary key {@code after} (null: from the first). */
    private void scan(int shard, List<String> after, Consumer<ErrPacket> done) {
        if (shard >= shards) {
            done.accept(null);
            return;
        }
        StringBuilder select = new StringBuilder("SELECT ");
        for (String c : primaryKey) {
            select.append(SqlLiterals.identifier(c)).append(", ");
        }
        for (String c : index.columns()) {
            select.append(SqlLiterals.identifier(c)).append(", ");
        }
        select.append(SqlLiterals.identifier(index.shardingColumn())).append(" FROM ").append(qualifiedTable).append(" WHERE ");
        for (String c : index.columns()) {
            select.append(SqlLiterals.identifier(c)).append(" IS NOT NULL AND ");
        }
        if (after != null) {
            select.append('(').append(columnList(primaryKey)).append(") > (");
            for (int i = 0; i < primaryKey.size(); i++) {
                select.append(i == 0 ? "" : ", ").append(literal(primaryKey.get(i), after.get(i)));
            }
            select.append(") AND ");
        }
        select.append("TRUE ORDER BY ").append(columnList(primaryKey)).append(" LIMIT ").append(CHUNK)
                .append(" LOCK IN SHARE MODE");
        new MultiExchange(new SystemContext(session.loop()), false, results -> {
            LegResult r = results.get(0);
            if (!r.ok()) {
                done.accept(r.errorPacket());
                return;
            }
            if (r.rows.isEmpty()) {
                scan(shard + 1, null, done);
                return;
            }
            int pk = primaryKey.size();
            int n = index.columns().size();
            List<Value> values = new ArrayList<>();
            for (var row : r.rows) {
                List<String> columns = new ArrayList<>();
                for (int c = 0; c < n; c++) {
                    columns.add(row.string(pk + c));
                }
                values.add(new Value(columns, row.string(pk + n)));
            }
            var last = r.rows.get(r.rows.size() - 1);
            List<String> next = new ArrayList<>();
            for (int i = 0; i < pk; i++) {
                next.add(last.string(i));
            }
            boolean more = r.rows.size() == CHUNK;
            rowsRead += r.rows.size();
            claim(values, error -> {
                if (error != null) {
                    done.accept(error);
                } else if (more) {
                    scan(shard, next, done);
                } else {
                    scan(shard + 1, null, done);
                }
            });
        }).leg(shard, bytes(select.toString())).start();
    }

    /** One row's value of the key and the row's sharding key, as the shard's text shows them. */
    private record Value(List<String> columns, String key) {
    }

    /** Claims {@code values} in the lookup; a value whose lookup row names another key is checked. */
    private void claim(List<Value> values, Consumer<ErrPacket> done) {
        Map<Integer, List<Integer>> byShard = new LinkedHashMap<>();
        for (int i = 0; i < values.size(); i++) {
            int shard;
            try {
                shard = lookupShard(values.get(i));
            } catch (NumberFormatException e) {
                done.accept(new ErrPacket(1235, "42000", "the value '" + String.join("-", values.get(i).columns())
                        + "' of " + index.name() + " cannot be placed in its lookup"));
                return;
            }
            byShard.computeIfAbsent(shard, k -> new ArrayList<>()).add(i);
        }
        List<Value> mismatched = new ArrayList<>();
        MultiExchange multi = new MultiExchange(new SystemContext(session.loop()), false, results -> {
            for (LegResult r : results) {
                if (!r.ok()) {
                    done.accept(r.errorPacket());
                    return;
                }
                for (var row : r.rows) {
                    mismatched.add(values.get(Integer.parseInt(row.string(0))));
                }
            }
            check(mismatched, 0, done);
        });
        byShard.forEach((shard, rows) -> {
            StringBuilder insert = new StringBuilder("INSERT IGNORE INTO ").append(index.qualifiedLookup()).append(" (")
                    .append(columnList(index.columns())).append(", ").append(UniqueIndex.KEY_COLUMN).append(") VALUES ");
            StringBuilder names = new StringBuilder();
            for (int k = 0; k < rows.size(); k++) {
                Value v = values.get(rows.get(k));
                insert.append(k == 0 ? "(" : ", (");
                insert.append(valueList(v)).append(", ").append(literal(index.shardingColumn(), v.key())).append(')');
                names.append(k == 0 ? "" : " UNION ALL ").append("SELECT ").append(rows.get(k)).append(" FROM ")
                        .append(index.qualifiedLookup()).append(" WHERE ").append(valueWhere(v)).append(" AND ")
                        .append(UniqueIndex.KEY_COLUMN).append(" <> ").append(literal(index.shardingColumn(), v.key()));
            }
            multi.leg(shard, List.of(bytes(insert.toString()), bytes(names.toString())));
        });
        multi.start();
    }

    /** Checks the mismatched values one after the other. */
    private void check(List<Value> mismatched, int from, Consumer<ErrPacket> done) {
        if (from == mismatched.size()) {
            done.accept(null);
            return;
        }
        valuesChecked++;
        verify(mismatched.get(from), RETRIES, error -> {
            if (error != null) {
                done.accept(error);
            } else {
                check(mismatched, from + 1, done);
            }
        });
    }

    /**
     * A value whose lookup row names another key than the scanned row's: the keys whose rows hold
     * it now, on every shard. Two or more: the rows break the key. One: the lookup row is pointed
     * at it, unless a writer changed the lookup row meanwhile (then the value is checked again).
     */
    private void verify(Value v, int retries, Consumer<ErrPacket> done) {
        String holders = "SELECT DISTINCT " + SqlLiterals.identifier(index.shardingColumn()) + " FROM " + qualifiedTable
                + " WHERE " + valueWhere(v);
        String lookup = "SELECT " + UniqueIndex.KEY_COLUMN + " FROM " + index.qualifiedLookup() + " WHERE " + valueWhere(v);
        int lookupShard = lookupShard(v);
        MultiExchange multi = new MultiExchange(new SystemContext(session.loop()), false, results -> {
            // Lower-case key to the key as a row holds it.
            Map<String, String> keys = new LinkedHashMap<>();
            String named = null;
            for (LegResult r : results) {
                if (!r.ok()) {
                    done.accept(r.errorPacket());
                    return;
                }
                int split = r.rowsEach.isEmpty() ? r.rows.size() : r.rowsEach.get(0);
                for (int i = 0; i < split; i++) {
                    String key = r.rows.get(i).string(0);
                    keys.putIfAbsent(key.toLowerCase(Locale.ROOT), key);
                }
                if (r.shard == lookupShard && r.rows.size() > split) {
                    named = r.rows.get(split).string(0);
                }
            }
            if (keys.size() > 1) {
                done.accept(new ErrPacket(1062, "23000", "Duplicate entry '" + String.join("-", v.columns())
                        + "' for key '" + index.name() + "'"));
                return;
            }
            if (keys.isEmpty() || named != null && named.equalsIgnoreCase(keys.values().iterator().next())) {
                done.accept(null);
                return;
            }
            if (retries == 0) {
                done.accept(new ErrPacket(1205, "HY000", "the rows holding '" + String.join("-", v.columns()) + "' of "
                        + index.name() + " kept changing while its lookup was built: try again"));
                return;
            }
            String holder = literal(index.shardingColumn(), keys.values().iterator().next());
            String point = named == null
                    ? "INSERT IGNORE INTO " + index.qualifiedLookup() + " (" + columnList(index.columns()) + ", "
                    + UniqueIndex.KEY_COLUMN + ") VALUES (" + valueList(v) + ", " + holder + ")"
                    : "UPDATE " + index.qualifiedLookup() + " SET " + UniqueIndex.KEY_COLUMN + " = " + holder + " WHERE "
                    + valueWhere(v) + " AND " + UniqueIndex.KEY_COLUMN + " = " + literal(index.shardingColumn(), named);
            on(lookupShard, List.of(bytes(point)), pointed -> {
                if (pointed != null) {
                    done.accept(pointed);
                } else {
                    // Pointed, or a writer took the lookup row meanwhile: either way the value is checked again.
                    verify(v, retries - 1, done);
                }
            });
        });
        for (int s = 0; s < shards; s++) {
            multi.leg(s, s == lookupShard ? List.of(bytes(holders), bytes(lookup)) : List.of(bytes(holders)));
        }
        multi.start();
    }

    private int lookupShard(Value v) {
        List<ShardKey> keys = new ArrayList<>();
        for (int c = 0; c < v.columns().size(); c++) {
            KeyType type = index.types().get(c);
            keys.add(type == null ? null : type == KeyType.INTEGER ? ShardKey.of(Long.parseLong(v.columns().get(c)))
                    : ShardKey.ofString(v.columns().get(c)));
        }
        return LookupPlacement.shardOf(index, keys);
    }

    private String valueList(Value v) {
        StringBuilder s = new StringBuilder();
        for (int c = 0; c < v.columns().size(); c++) {
            s.append(c == 0 ? "" : ", ").append(literal(index.columns().get(c), v.columns().get(c)));
        }
        return s.toString();
    }

    private String valueWhere(Value v) {
        StringBuilder s = new StringBuilder("(");
        for (int c = 0; c < v.columns().size(); c++) {
            s.append(c == 0 ? "" : " AND ").append(SqlLiterals.identifier(index.columns().get(c))).append(" = ")
                    .append(literal(index.columns().get(c), v.columns().get(c)));
        }
        return s.append(')').toString();
    }

    /**
     * A value read from the shard as SQL: integers as numbers, anything else as the bytes the shard
     * sent (utf8mb4 text, or binary when not valid UTF-8), which the server converts to the
     * column's type and compares by its collation.
     */
    private String literal(String column, String text) {
        String type = dataTypes.getOrDefault(column.toLowerCase(Locale.ROOT), "");
        if (type.endsWith("int") && text.matches("-?[0-9]+")) {
            return text;
        }
        byte[] raw = text.getBytes(StandardCharsets.UTF_8);
        boolean utf8;
        try {
            StandardCharsets.UTF_8.newDecoder().decode(ByteBuffer.wrap(raw));
            utf8 = true;
        } catch (CharacterCodingException e) {
            utf8 = false;
        }
        return (utf8 ? "_utf8mb4 X'" : "X'") + HexFormat.of().formatHex(raw) + "'";
    }

    private static String columnList(List<String> columns) {
        StringBuilder s = new StringBuilder();
        for (String c : columns) {
            s.append(s.length() == 0 ? "" : ", ").append(SqlLiterals.identifier(c));
        }
        return s.toString();
    }

    private String keyRow() {
        return SqlLiterals.string(index.schema()) + ", " + SqlLiterals.string(index.table()) + ", "
                + SqlLiterals.string(index.name());
    }

    private String keyWhere() {
        return "schema_name = " + SqlLiterals.string(index.schema()) + " AND table_name = "
                + SqlLiterals.string(index.table()) + " AND key_name = " + SqlLiterals.string(index.name());
    }

    /** Runs {@code statements} on every shard; {@code done} gets the first error or null. */
    private void onEveryShard(List<byte[]> statements, Consumer<ErrPacket> done) {
        MultiExchange multi = new MultiExchange(new SystemContext(session.loop()), false, results -> {
            for (LegResult r : results) {
                if (!r.ok()) {
                    done.accept(r.errorPacket());
                    return;
                }
            }
            done.accept(null);
        });
        for (int s = 0; s < shards; s++) {
            multi.leg(s, statements);
        }
        multi.start();
    }

    /** Runs {@code statements} on {@code shard}; {@code done} gets the error or null. */
    private void on(int shard, List<byte[]> statements, Consumer<ErrPacket> done) {
        new MultiExchange(new SystemContext(session.loop()), false,
                results -> done.accept(results.get(0).ok() ? null : results.get(0).errorPacket()))
                .leg(shard, statements).start();
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }
}
