package io.cleave.proxy.frontend;

import io.cleave.proxy.metrics.RouteKind;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.plan.KeyValue;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;
import io.cleave.router.plan.Target;
import io.cleave.router.shardmap.ShardMap;

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

    InsertSplitter(Session session, PlanExecutor executor, FanOutWrites writes) {
        this.session = session;
        this.executor = executor;
        this.writes = writes;
    }

    void run(Command command, Plan.InsertSplit split) {
        if (split.missingKeyColumn() != null) {
            String schema = split.schema() != null ? split.schema() : session.settings().schema();
            if (schema == null) {
                command.refuse(1046, "3D000", "No database selected");
                return;
            }
            // Take what the rows need from the analysis now: the loop's buffers are reused meanwhile.
            byte[][] rendered = renderRows(split, command);
            byte[] head = render(split.head(), command);
            byte[] tail = render(split.tail(), command);
            byte[] columnsHead = render(new SqlTemplate.Tokens(split.head().first(), split.columnListEnd()), command);
            byte[] columnsRest = render(new SqlTemplate.Tokens(split.columnListEnd(), split.head().end()), command);
            command.clearLongData();
            session.runtime().sequences().next(session.loop(), schema, split.table(), split.missingKeyColumn(),
                    split.rows().size(), (ids, error) -> {
                        if (error != null) {
                            command.error(error);
                            return;
                        }
                        withGeneratedKeys(command, split, ids, rendered, columnsHead, columnsRest, tail, head);
                    });
            return;
        }
        ShardMap map = session.runtime().shardMaps().current();
        int[] shardOfRow = new int[split.rows().size()];
        boolean oneShard = true;
        for (int i = 0; i < shardOfRow.length; i++) {
            KeyValue key = split.rows().get(i).key();
            int shard = session.runtime().resolver().shardOf(split.keyspace(), key, command.values(), map);
            if (shard < 0) {
                command.refuse("row " + (i + 1) + " of the INSERT into " + split.table() + " has a sharding key that"
                        + " no shard holds (NULL, not a whole number, or outside every configured range of keyspace "
                        + split.keyspace().name() + ")");
                return;
            }
            shardOfRow[i] = shard;
            oneShard &= shard == shardOfRow[0];
        }
        if (oneShard) {
            Plan.Route route = Plan.Route.of(split.kind(), new Target.Shard(shardOfRow[0]), Plan.Access.WRITE, null);
            executor.single(command, route, shardOfRow[0]);
            return;
        }
        byte[][] rows = renderRows(split, command);
        byte[] head = render(split.head(), command);
        byte[] tail = render(split.tail(), command);
        command.clearLongData();
        send(command, head, rows, tail, shardOfRow, -1);
    }

    private void withGeneratedKeys(Command command, Plan.InsertSplit split, long[] ids, byte[][] rows, byte[] columnsHead,
                                   byte[] columnsRest, byte[] tail, byte[] head) {
        ShardMap map = session.runtime().shardMaps().current();
        int[] shardOfRow = new int[rows.length];
        byte[][] withIds = new byte[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            shardOfRow[i] = session.runtime().resolver().shardOf(split.keyspace(), ShardKey.of(ids[i]), map);
            if (shardOfRow[i] < 0) {
                command.error(1235, "42000", "generated " + split.missingKeyColumn() + " " + ids[i]
                        + " is outside every configured range of keyspace " + split.keyspace().name());
                return;
            }
            // The row's closing parenthesis gets the generated key before it.
            byte[] row = rows[i];
            int close = row.length - 1;
            ByteArrayOutputStream out = new ByteArrayOutputStream(row.length + 24);
            out.write(row, 0, close);
            byte[] id = (", " + ids[i]).getBytes(StandardCharsets.US_ASCII);
            out.write(id, 0, id.length);
            out.write(row, close, row.length - close);
            withIds[i] = out.toByteArray();
        }
        ByteArrayOutputStream newHead = new ByteArrayOutputStream(head.length + 16);
        newHead.write(columnsHead, 0, columnsHead.length);
        byte[] column = (", `" + split.missingKeyColumn().replace("`", "``") + "`").getBytes(StandardCharsets.UTF_8);
        newHead.write(column, 0, column.length);
        newHead.write(columnsRest, 0, columnsRest.length);
        send(command, newHead.toByteArray(), withIds, tail, shardOfRow, ids[0]);
    }

    /** One statement per shard with that shard's rows; answers with the combined OK. */
    private void send(Command command, byte[] head, byte[][] rows, byte[] tail, int[] shardOfRow,
                      long firstGeneratedId) {
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
