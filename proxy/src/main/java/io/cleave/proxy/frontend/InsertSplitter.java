package io.cleave.proxy.frontend;

import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.plan.KeyValue;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;
import io.cleave.router.plan.Target;
import io.cleave.router.plan.TargetResolver;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import io.cleave.router.unique.UniqueIndex;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs a multi-row INSERT/REPLACE into a sharded table: each row goes to its key's shard, so each
 * shard gets one statement with only its rows. When the rows leave out the sharding key (an
 * AUTO_INCREMENT column), the keys come from the table's durable sequence first. A statement
 * whose rows all land on one shard goes there unchanged.
 */
final class InsertSplitter {

    private final Session session;
    private final PlanExecutor executor;
    private final FanOutWrites writes;
    private final UniqueInsert uniques;

    InsertSplitter(Session session, PlanExecutor executor, FanOutWrites writes) {
        this.session = session;
        this.executor = executor;
        this.writes = writes;
        this.uniques = new UniqueInsert(session);
    }

    /**
     * Runs the split. An INSERT without a column list needs the table's column order: when it is
     * not known yet, it is looked up and the command starts again with {@code rerun} (its text's
     * buffers are the event loop's, reused meanwhile).
     */
    void run(Command command, Plan.InsertSplit split, Runnable rerun) {
        String unknownKeys = session.runtime().uniqueIndexes().notLoadedRefusal(split.table(),
                session.runtime().topology().defaultShard());
        if (unknownKeys != null) {
            // The default shard has been down since the proxy started: any sharded table could have such a key.
            command.refuse(1105, "HY000", unknownKeys);
            return;
        }
        String schema = split.schema() != null ? split.schema() : session.settings().schema();
        String unfinished = session.runtime().uniqueIndexes().unfinishedRefusal(
                session.runtime().uniqueIndexes().of(schema, split.table()));
        if (unfinished != null) {
            command.refuse(unfinished);
            return;
        }
        if (split.missingKeyColumn() != null) {
            if (schema == null) {
                command.refuse(1046, "3D000", "No database selected");
                return;
            }
            TableColumns.Shape shape = shape(command, split, schema, rerun);
            if (shape == null) {
                return;
            }
            // Take what the rows need from the analysis now: the loop's buffers are reused meanwhile.
            Rendered r = new Rendered(split, command, uniqueRows(command, split, schema, null));
            String sequenceDefault = shape.sequenceDefaults().get(split.missingKeyColumn());
            if (sequenceDefault != null) {
                // The key's DEFAULT draws from a sequence: its values decide the rows' shards.
                drawFromSequences(command, List.of(sequenceDefault), r.rows.length, values -> {
                    long[] ids = new long[values.length];
                    for (int i = 0; i < ids.length; i++) {
                        ids[i] = Long.parseLong(values[i][0]);
                    }
                    withGeneratedIds(command, split, split.missingKeyColumn(), ids, null, r);
                });
                return;
            }
            session.runtime().sequences().next(session.loop(), schema, split.table(), split.missingKeyColumn(),
                    split.rows().size(), (ids, error) -> {
                        if (error != null) {
                            command.error(error);
                            return;
                        }
                        withGeneratedIds(command, split, split.missingKeyColumn(), ids, null, r);
                    });
            return;
        }
        int keyPosition = -1;
        if (split.columns().isEmpty()) {
            keyPosition = keyPosition(command, split, schema, rerun);
            if (keyPosition < 0) {
                return;
            }
        }
        ShardMap map = session.runtime().shardMaps().current();
        int[] shardOfRow = new int[split.rows().size()];
        boolean oneShard = true;
        long largestKey = Long.MIN_VALUE;
        TargetResolver resolver = session.runtime().resolver();
        for (int i = 0; i < shardOfRow.length; i++) {
            Plan.InsertRow row = split.rows().get(i);
            KeyValue value = keyPosition < 0 ? row.key() : row.values().get(keyPosition);
            if (value == null) {
                command.refuse("the sharding key of " + split.table() + " must be given as a value in every row (not"
                        + " NULL, DEFAULT or an expression) so the row's shard is known: row " + (i + 1) + " does not");
                return;
            }
            ShardKey key = resolver.keyOf(split.keyspace(), value, command.values());
            int shard = key == null ? -1 : resolver.shardOf(split.keyspace(), key, map);
            if (key instanceof ShardKey.IntKey k) {
                largestKey = Math.max(largestKey, k.value());
            }
            if (shard < 0) {
                command.refuse("row " + (i + 1) + " of the INSERT into " + split.table() + " has a sharding key that"
                        + " no shard holds (NULL, not a whole number, or outside every configured range of keyspace "
                        + split.keyspace().name() + ")");
                return;
            }
            shardOfRow[i] = shard;
            oneShard &= shard == shardOfRow[0];
        }
        TableColumns.Shape known = schema == null ? null : session.runtime().tableColumns().cached(schema, split.table());
        List<String> tableColumns = split.columns().isEmpty() && known != null ? known.columns() : null;
        UniqueRows unique = uniqueRows(command, split, schema, tableColumns);
        if (known != null && !drawnFromSequences(split, known).isEmpty()) {
            withSequenceDefaults(command, split, known, new Rendered(split, command, unique), shardOfRow);
            return;
        }
        String auto = schema == null ? "" : session.runtime().tableColumns().cachedAutoIncrement(schema, split.table());
        if (auto != null && (auto.isEmpty() || listed(split, auto))) {
            keysGiven(split, schema, auto, largestKey);
            if (oneShard && unique == null) {
                Plan.Route route = Plan.Route.of(split.kind(), new Target.Shard(shardOfRow[0]), Plan.Access.WRITE, null);
                executor.single(command, route, shardOfRow[0]);
                return;
            }
            Rendered r = new Rendered(split, command, unique);
            send(command, split, r, r.head, r.rows, shardOfRow, -1);
            return;
        }
        // An AUTO_INCREMENT column other than the key, left out (or not known yet): each shard's own
        // counter would repeat the others' ids, so they come from the table's sequence.
        long largest = largestKey;
        Rendered r = new Rendered(split, command, unique);
        session.runtime().tableColumns().lookup(schema, split.table(), session.loop(), (shape, error) -> {
            String column = shape == null || shape.autoIncrement().isEmpty() ? null : shape.autoIncrement();
            if (error != null) {
                command.error(error);
            } else if (!drawnFromSequences(split, shape).isEmpty()) {
                withSequenceDefaults(command, split, shape, r, shardOfRow);
            } else if (column == null || listed(split, column)) {
                keysGiven(split, schema, column, largest);
                send(command, split, r, r.head, r.rows, shardOfRow, -1);
            } else {
                session.runtime().sequences().next(session.loop(), schema, split.table(), column, r.rows.length,
                        (ids, failed) -> {
                            if (failed != null) {
                                command.error(failed);
                                return;
                            }
                            withGeneratedIds(command, split, column, ids, shardOfRow, r);
                        });
            }
        });
    }

    /** The table's shape, or null when it is being looked up (the command then starts again) or the command ended. */
    private TableColumns.Shape shape(Command command, Plan.InsertSplit split, String schema, Runnable rerun) {
        TableColumns columns = session.runtime().tableColumns();
        TableColumns.Shape shape = columns.cached(schema, split.table());
        if (shape == null) {
            columns.lookup(schema, split.table(), session.loop(), (found, error) -> {
                if (error != null) {
                    command.error(error);
                } else {
                    rerun.run();
                }
            });
        }
        return shape;
    }

    /** The columns the rows leave out whose DEFAULT draws from a sequence (an INSERT without a column list gives all). */
    private static List<String> drawnFromSequences(Plan.InsertSplit split, TableColumns.Shape shape) {
        List<String> out = new ArrayList<>();
        if (!split.columns().isEmpty()) {
            for (String column : shape.sequenceDefaults().keySet()) {
                if (!listed(split, column)) {
                    out.add(column);
                }
            }
        }
        return out;
    }

    /**
     * Rows that leave out columns whose DEFAULT draws from a sequence: the values are drawn on the
     * default shard, where the sequence counts (each shard's copy would repeat them), and written
     * into every row, which then goes to its key's shard.
     */
    private void withSequenceDefaults(Command command, Plan.InsertSplit split, TableColumns.Shape shape, Rendered r,
                                      int[] shardOfRow) {
        if (!shape.autoIncrement().isEmpty() && !listed(split, shape.autoIncrement())) {
            command.refuse("the rows leave out both " + shape.autoIncrement() + " (AUTO_INCREMENT) and a column whose"
                    + " DEFAULT draws from a sequence: give one of them in the statement");
            return;
        }
        List<String> columns = drawnFromSequences(split, shape);
        List<String> defaults = new ArrayList<>();
        for (String c : columns) {
            defaults.add(shape.sequenceDefaults().get(c));
        }
        drawFromSequences(command, defaults, r.rows.length, values -> {
            byte[][] rows = new byte[r.rows.length][];
            for (int i = 0; i < rows.length; i++) {
                StringBuilder added = new StringBuilder();
                for (String v : values[i]) {
                    added.append(", ").append(v == null ? "NULL" : SqlLiterals.string(v));
                }
                rows[i] = beforeClose(r.rows[i], added.toString().getBytes(StandardCharsets.UTF_8));
            }
            StringBuilder names = new StringBuilder();
            for (String c : columns) {
                names.append(", `").append(c.replace("`", "``")).append('`');
            }
            send(command, split, r, withColumns(r, names.toString()), rows, shardOfRow, -1);
        });
    }

    /**
     * Evaluates each of {@code defaults} (a column's DEFAULT as the server writes it, e.g.
     * {@code nextval(`shop`.`ids`)}) once per row on the default shard, in one statement; each
     * row's values go to {@code then}.
     */
    private void drawFromSequences(Command command, List<String> defaults, int rows,
                                   java.util.function.Consumer<String[][]> then) {
        StringBuilder select = new StringBuilder("SELECT ");
        for (int i = 0; i < rows; i++) {
            for (int d = 0; d < defaults.size(); d++) {
                select.append(i + d > 0 ? ", " : "").append(defaults.get(d));
            }
        }
        new MultiExchange(new SystemContext(session.loop()), false, results -> {
            LegResult leg = results.get(0);
            if (!leg.ok() || leg.rows.size() != 1) {
                command.error(leg.ok() ? new ErrPacket(1105, "HY000", "drawing from a sequence returned no row")
                        : leg.errorPacket());
                return;
            }
            String[][] values = new String[rows][defaults.size()];
            for (int i = 0; i < rows; i++) {
                for (int d = 0; d < defaults.size(); d++) {
                    values[i][d] = leg.rows.get(0).string(i * defaults.size() + d);
                }
            }
            then.accept(values);
        }).leg(session.runtime().topology().defaultShard(), select.toString().getBytes(StandardCharsets.UTF_8)).start();
    }

    /** {@code row} (a VALUES row, parentheses included) with {@code added} before its closing parenthesis. */
    private static byte[] beforeClose(byte[] row, byte[] added) {
        int close = row.length - 1;
        ByteArrayOutputStream out = new ByteArrayOutputStream(row.length + added.length);
        out.write(row, 0, close);
        out.write(added, 0, added.length);
        out.write(row, close, row.length - close);
        return out.toByteArray();
    }

    /** The statement's head with {@code names} (", `c`" each) added to its column list. */
    private static byte[] withColumns(Rendered r, String names) {
        ByteArrayOutputStream head = new ByteArrayOutputStream(r.head.length + names.length());
        head.write(r.columnsHead, 0, r.columnsHead.length);
        byte[] added = names.getBytes(StandardCharsets.UTF_8);
        head.write(added, 0, added.length);
        head.write(r.columnsRest, 0, r.columnsRest.length);
        return head.toByteArray();
    }

    /**
     * Rows gave the table's AUTO_INCREMENT sharding key: its sequence moves past the largest, so
     * a later row without one never gets an id these rows hold (committed or not).
     */
    private void keysGiven(Plan.InsertSplit split, String schema, String autoColumn, long largestKey) {
        if (autoColumn == null || autoColumn.isEmpty() || largestKey == Long.MIN_VALUE
                || !(session.runtime().topology().ruleFor(split.table()) instanceof TableRule.Sharded sharded)
                || !sharded.column().equalsIgnoreCase(autoColumn)) {
            return;
        }
        session.runtime().sequences().observe(schema, split.table(), autoColumn, largestKey);
    }

    /**
     * The position of the sharding key among the table's columns, for an INSERT without a column
     * list (checking every row gives every column); -1 when the command has ended or waits for
     * the table's columns to be looked up.
     */
    private int keyPosition(Command command, Plan.InsertSplit split, String schema, Runnable rerun) {
        if (schema == null) {
            command.refuse(1046, "3D000", "No database selected");
            return -1;
        }
        TableColumns.Shape shape = shape(command, split, schema, rerun);
        if (shape == null) {
            return -1;
        }
        for (int i = 0; i < split.rows().size(); i++) {
            if (split.rows().get(i).values().size() != shape.columns().size()) {
                command.refuse(1136, "21S01", "Column count doesn't match value count at row " + (i + 1));
                return -1;
            }
        }
        String keyColumn = session.runtime().topology().ruleFor(split.table()) instanceof TableRule.Sharded sharded
                ? sharded.column() : null;
        int position = keyColumn == null ? -1 : shape.indexOf(keyColumn);
        if (position < 0) {
            command.refuse("the sharded table " + split.table() + " has no column " + keyColumn + " to route its rows by");
        }
        return position;
    }

    private static boolean listed(Plan.InsertSplit split, String column) {
        if (split.columns().isEmpty()) {
            return true;
        }
        for (String c : split.columns()) {
            if (c.equalsIgnoreCase(column)) {
                return true;
            }
        }
        return false;
    }

    /** What the rows need from the analysis, taken before waiting: the loop's buffers are reused meanwhile. */
    private static final class Rendered {
        final byte[][] rows;
        final byte[] head;
        final byte[] tail;
        final byte[] columnsHead;
        final byte[] columnsRest;
        /** The rows' values for the table's global unique keys, or null when it has none. */
        final UniqueRows unique;

        Rendered(Plan.InsertSplit split, Command command, UniqueRows unique) {
            this.unique = unique;
            rows = renderRows(split, command);
            head = render(split.head(), command);
            tail = render(split.tail(), command);
            columnsHead = render(new SqlTemplate.Tokens(split.head().first(), split.columnListEnd()), command);
            columnsRest = render(new SqlTemplate.Tokens(split.columnListEnd(), split.head().end()), command);
            // An execute's long data went into the rendered values.
            command.clearLongData();
        }
    }

    /**
     * Adds the generated ids as {@code column} to every row and sends the rows to their shards:
     * the ids' shards when the column is the sharding key ({@code shardOfRow} null), else the
     * rows' own.
     */
    private void withGeneratedIds(Command command, Plan.InsertSplit split, String column, long[] ids, int[] shardOfRow,
                                  Rendered r) {
        ShardMap map = session.runtime().shardMaps().current();
        if (r.unique != null) {
            r.unique.generated(column, ids, shardOfRow == null);
        }
        int[] shards = shardOfRow != null ? shardOfRow : new int[r.rows.length];
        byte[][] withIds = new byte[r.rows.length][];
        for (int i = 0; i < r.rows.length; i++) {
            if (shardOfRow == null) {
                shards[i] = session.runtime().resolver().shardOf(split.keyspace(),
                        ShardKey.of(ids[i]), map);
                if (shards[i] < 0) {
                    command.error(1235, "42000", "generated " + column + " " + ids[i]
                            + " is outside every configured range of keyspace " + split.keyspace().name());
                    return;
                }
            }
            // The row's closing parenthesis gets the generated id before it.
            withIds[i] = beforeClose(r.rows[i], (", " + ids[i]).getBytes(StandardCharsets.US_ASCII));
        }
        send(command, split, r, withColumns(r, ", `" + column.replace("`", "``") + "`"), withIds, shards, ids[0]);
    }

    /**
     * The table's global unique keys' values in the rows, or null when it has none ({@code
     * tableColumns}: the table's columns in order, for an INSERT without a column list).
     */
    private UniqueRows uniqueRows(Command command, Plan.InsertSplit split, String schema, List<String> tableColumns) {
        List<UniqueIndex> indexes = session.runtime().uniqueIndexes().of(schema, split.table());
        if (indexes.isEmpty()) {
            return null;
        }
        return UniqueRows.of(split, command.values(), indexes, tableColumns, split.keyspace().function().keyType(),
                indexes.get(0).shardingColumn());
    }

    /**
     * One statement per shard with that shard's rows; answers with the combined OK. Into a table
     * with global unique keys, the rows go through {@link UniqueInsert}, after their lookup rows.
     */
    private void send(Command command, Plan.InsertSplit split, Rendered r, byte[] head, byte[][] rows,
                      int[] shardOfRow, long firstGeneratedId) {
        byte[] tail = r.tail;
        if (r.unique != null) {
            String schema = split.schema() != null ? split.schema() : session.settings().schema();
            uniques.run(command, split, r.unique, new UniqueInsert.Base(schema, split.table(), split.keyspace(), head,
                    rows, tail, shardOfRow, firstGeneratedId, null));
            return;
        }
        List<Integer> shards = new ArrayList<>();
        for (int s : shardOfRow) {
            if (!shards.contains(s)) {
                shards.add(s);
            }
        }
        command.served(shards.size() > 1 ? RouteKind.MULTI_SHARD : RouteKind.SINGLE_SHARD);
        int[] targets = new int[shards.size()];
        List<byte[]> statements = new ArrayList<>();
        for (int t = 0; t < targets.length; t++) {
            int shard = shards.get(t);
            targets[t] = shard;
            ByteArrayOutputStream out = new ByteArrayOutputStream(head.length + tail.length + 256);
            out.write(head, 0, head.length);
            out.write(' ');
            boolean first = true;
            for (int i = 0; i < rows.length; i++) {
                if (shardOfRow[i] != shard) {
                    continue;
                }
                if (!first) {
                    out.write(',');
                }
                out.write(rows[i], 0, rows[i].length);
                first = false;
            }
            out.write(' ');
            out.write(tail, 0, tail.length);
            statements.add(out.toByteArray());
        }
        writes.write(command, targets, statements, true, false, "INSERT", firstGeneratedId);
    }

    private static byte[][] renderRows(Plan.InsertSplit split, Command command) {
        byte[][] rows = new byte[split.rows().size()][];
        for (int i = 0; i < rows.length; i++) {
            Plan.InsertRow row = split.rows().get(i);
            rows[i] = render(new SqlTemplate.Tokens(row.first(), row.end()), command);
        }
        return rows;
    }

    private static byte[] render(SqlTemplate.Tokens tokens, Command command) {
        if (tokens.first() >= tokens.end()) {
            return new byte[0];
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SqlRenderer.append(out, tokens, command.analysis(), command.values());
        return out.toByteArray();
    }
}
