package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.server.LoopResources;
import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.parse.SqlParser;
import io.netty.channel.EventLoop;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Sharding keys for rows that leave out an AUTO_INCREMENT sharding key: each shard's own counter
 * would hand out the same ids, so the proxy draws them from one durable sequence per table, kept
 * in {@code cleave.sequences} on the default shard. Blocks of ids are reserved with one committed
 * UPDATE before any is used, so an id is never handed out twice, even across a crash (a crash
 * only leaves a gap). A new sequence starts after the largest key any shard already has.
 */
public final class SequenceService {

    /** Called with the ids (in order) or the error. Runs on the requesting session's event loop. */
    interface Callback {
        void done(long[] ids, ErrPacket error);
    }

    private static final int FIRST_BLOCK = 64;
    private static final int MAX_BLOCK = 65_536;

    private final int defaultShard;
    /** Local shards now (shards come and go with 'cleave scale'). */
    private final java.util.function.IntSupplier shardCount;
    private final ConcurrentHashMap<String, Sequence> sequences = new ConcurrentHashMap<>();

    public SequenceService(int defaultShard, java.util.function.IntSupplier shardCount) {
        this.defaultShard = defaultShard;
        this.shardCount = shardCount;
    }

    private record Request(EventLoop loop, int count, Callback callback) {
    }

    private static final class Sequence {
        final String schema;
        final String table;
        final String column;
        long next;
        long limit;
        int blockSize = FIRST_BLOCK;
        boolean fetching;
        final ArrayDeque<Request> waiting = new ArrayDeque<>();

        Sequence(String schema, String table, String column) {
            this.schema = schema;
            this.table = table;
            this.column = column;
        }

        String name() {
            return schema + "." + table;
        }
    }

    void next(LoopResources loop, String schema, String table, String column, int count, Callback callback) {
        String key = (schema + "." + table).toLowerCase(Locale.ROOT);
        Sequence seq = sequences.computeIfAbsent(key, k -> new Sequence(schema, table, column));
        long[] ids = null;
        boolean fetch = false;
        synchronized (seq) {
            if (seq.waiting.isEmpty() && seq.limit - seq.next >= count) {
                ids = take(seq, count);
            } else {
                seq.waiting.add(new Request(loop.loop(), count, callback));
                if (!seq.fetching) {
                    seq.fetching = true;
                    fetch = true;
                }
            }
        }
        if (ids != null) {
            callback.done(ids, null);
        } else if (fetch) {
            fetch(seq, loop);
        }
    }

    private static long[] take(Sequence seq, int count) {
        long[] ids = new long[count];
        for (int i = 0; i < count; i++) {
            ids[i] = seq.next++;
        }
        return ids;
    }

    private void fetch(Sequence seq, LoopResources loop) {
        // cleave.sequences exists on every shard: the proxy creates it before it accepts clients.
        reserve(seq, loop, true);
    }

    /** Reserves the next block with one committed UPDATE; LAST_INSERT_ID(expr) returns the new end. */
    private void reserve(Sequence seq, LoopResources loop, boolean initializeIfMissing) {
        int wanted;
        synchronized (seq) {
            int queued = 0;
            for (Request r : seq.waiting) {
                queued += r.count();
            }
            wanted = Math.max(seq.blockSize, queued);
        }
        String sql = "UPDATE cleave.sequences SET next_value = LAST_INSERT_ID(next_value + " + wanted + ") WHERE name = "
                + quote(seq.name());
        run(seq, loop, defaultShard, sql, r -> {
            if (r.affectedRows == 0) {
                if (initializeIfMissing) {
                    initialize(seq, loop);
                } else {
                    fail(seq, new ErrPacket(1105, "HY000", "sequence " + seq.name() + " vanished while reserving ids"));
                }
                return;
            }
            long end = r.lastInsertId;
            serve(seq, end - wanted, end, loop);
        });
    }

    /** A new sequence: checks the key column is AUTO_INCREMENT, then starts after the largest key on any shard. */
    private void initialize(Sequence seq, LoopResources loop) {
        String check = "SELECT EXTRA FROM information_schema.COLUMNS WHERE TABLE_SCHEMA = " + quote(seq.schema)
                + " AND TABLE_NAME = " + quote(seq.table) + " AND COLUMN_NAME = " + quote(seq.column);
        run(seq, loop, defaultShard, check, r -> {
            if (r.rows.isEmpty()) {
                fail(seq, new ErrPacket(1146, "42S02", "Table '" + seq.name() + "' doesn't exist or has no column "
                        + seq.column));
                return;
            }
            String extra = r.rows.get(0).string(0);
            if (extra == null || !extra.toLowerCase(Locale.ROOT).contains("auto_increment")) {
                fail(seq, new ErrPacket(1364, "HY000", "Field '" + seq.column + "' doesn't have a default value: it is"
                        + " the sharding key of " + seq.name() + " and not AUTO_INCREMENT, so every row must give it"));
                return;
            }
            String max = "SELECT MAX(" + ident(seq.column) + ") FROM " + ident(seq.schema) + "." + ident(seq.table);
            MultiExchange maxes = new MultiExchange(new SystemContext(loop), false, results -> {
                long start = 1;
                for (LegResult leg : results) {
                    if (!leg.ok()) {
                        fail(seq, leg.errorPacket());
                        return;
                    }
                    String v = leg.rows.isEmpty() ? null : leg.rows.get(0).string(0);
                    if (v != null) {
                        start = Math.max(start, Long.parseLong(v) + 1);
                    }
                }
                String insert = "INSERT IGNORE INTO cleave.sequences (name, next_value) VALUES (" + quote(seq.name())
                        + ", " + start + ")";
                run(seq, loop, defaultShard, insert, ignored -> reserve(seq, loop, false));
            });
            for (int s = 0, n = shardCount.getAsInt(); s < n; s++) {
                maxes.leg(s, max.getBytes(StandardCharsets.UTF_8));
            }
            maxes.start();
        });
    }

    /** DDL after which a table's ids start afresh: its sequence must go with it. */
    static boolean resetsSequences(StatementKind kind) {
        return kind == StatementKind.CREATE_TABLE || kind == StatementKind.DROP_TABLE
                || kind == StatementKind.TRUNCATE_TABLE || kind == StatementKind.RENAME_TABLE
                || kind == StatementKind.DROP_DATABASE;
    }

    /**
     * Forgets the sequences of the tables {@code ddl} creates, drops, empties or renames (of every
     * table in a dropped schema), in memory and durably, then runs {@code then}: the next row
     * without a key starts after the largest key the table has then, 1 for an empty table. The
     * durable rows go before the DDL runs, so no insert after it can find the old sequence.
     */
    void reset(byte[] ddl, SqlMode mode, String currentSchema, LoopResources loop, Runnable then) {
        Statement statement;
        try {
            statement = SqlParser.parse(ddl, mode);
        } catch (RuntimeException e) {
            // The shards will reject what does not parse here; nothing to forget.
            then.run();
            return;
        }
        List<String> names = new ArrayList<>();
        List<String> schemas = new ArrayList<>();
        if (statement instanceof Ddl.Database db && db.kind() == StatementKind.DROP_DATABASE) {
            schemas.add(db.name().value());
        } else if (statement instanceof Ddl d) {
            for (TableName t : d.tables()) {
                String schema = t.schema() != null ? t.schema() : currentSchema;
                if (schema != null) {
                    names.add(schema + "." + t.name());
                }
            }
        }
        if (names.isEmpty() && schemas.isEmpty()) {
            then.run();
            return;
        }
        StringBuilder where = new StringBuilder();
        for (String name : names) {
            sequences.remove(name.toLowerCase(Locale.ROOT));
            where.append(where.length() == 0 ? "" : " OR ").append("name = ").append(quote(name));
        }
        for (String schema : schemas) {
            String prefix = schema.toLowerCase(Locale.ROOT) + ".";
            sequences.keySet().removeIf(k -> k.startsWith(prefix));
            where.append(where.length() == 0 ? "" : " OR ").append("name LIKE ")
                    .append(quote(schema.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + ".%"));
        }
        String sql = "DELETE FROM cleave.sequences WHERE " + where;
        // Whether or not the delete worked, the DDL goes on: a sequence row left behind only means
        // ids continue where they were, as before.
        new MultiExchange(new SystemContext(loop), false, results -> then.run())
                .leg(defaultShard, sql.getBytes(StandardCharsets.UTF_8)).start();
    }

    private void serve(Sequence seq, long from, long end, LoopResources loop) {
        boolean more;
        synchronized (seq) {
            // A block that continues the current one (no other proxy drew in between) keeps the
            // current one's remainder: ids stay dense instead of skipping what a large insert
            // could not use.
            if (from != seq.limit || seq.next > seq.limit) {
                seq.next = from;
            }
            seq.limit = end;
            seq.blockSize = Math.min(MAX_BLOCK, seq.blockSize * 2);
            while (!seq.waiting.isEmpty() && seq.limit - seq.next >= seq.waiting.peek().count()) {
                Request r = seq.waiting.poll();
                long[] ids = take(seq, r.count());
                r.loop().execute(() -> r.callback().done(ids, null));
            }
            more = !seq.waiting.isEmpty();
            seq.fetching = more;
        }
        if (more) {
            reserve(seq, loop, false);
        }
    }

    private void fail(Sequence seq, ErrPacket error) {
        List<Request> failed;
        synchronized (seq) {
            failed = List.copyOf(seq.waiting);
            seq.waiting.clear();
            seq.fetching = false;
        }
        for (Request r : failed) {
            r.loop().execute(() -> r.callback().done(null, error));
        }
    }

    /** Runs one statement for {@code seq} on a shard; a failure fails everyone waiting for it. */
    private void run(Sequence seq, LoopResources loop, int shard, String sql, java.util.function.Consumer<LegResult> onOk) {
        new MultiExchange(new SystemContext(loop), false, results -> {
            LegResult r = results.get(0);
            if (!r.ok()) {
                fail(seq, r.errorPacket());
                return;
            }
            onOk.accept(r);
        }).leg(shard, sql.getBytes(StandardCharsets.UTF_8)).start();
    }

    private static String quote(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    private static String ident(String s) {
        return "`" + s.replace("`", "``") + "`";
    }
}
