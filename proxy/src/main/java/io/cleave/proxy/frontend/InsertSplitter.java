package io.cleave.proxy.frontend;

import io.cleave.proxy.metrics.RouteKind;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.KeyValue;
import io.cleave.router.plan.ParameterValues;
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

    private final ClientSession session;
    private final StatementRunner runner;

    InsertSplitter(ClientSession session, StatementRunner runner) {
        this.session = session;
        this.runner = runner;
    }

    void run(Plan.InsertSplit split, StatementRunner.Execution exec) {
        if (split.missingKeyColumn() != null) {
            String schema = split.schema() != null ? split.schema() : session.settings().schema();
            if (schema == null) {
                runner.refuse(1046, "3D000", "No database selected");
                return;
            }
            // Take what the rows need from the analysis now: the loop's buffers are reused meanwhile.
            byte[][] rendered = renderRows(split, exec);
            byte[] head = render(split.head(), exec);
            byte[] tail = render(split.tail(), exec);
            byte[] columnsHead = render(new SqlTemplate.Tokens(split.head().first(), split.columnListEnd()), exec);
            byte[] columnsRest = render(new SqlTemplate.Tokens(split.columnListEnd(), split.head().end()), exec);
            session.runtime().sequences().next(session, schema, split.table(), split.missingKeyColumn(),
                    split.rows().size(), (ids, error) -> {
                        if (error != null) {
                            session.error(error);
                            return;
                        }
                        withGeneratedKeys(split, ids, rendered, columnsHead, columnsRest, tail, head);
                    });
            return;
        }
        ShardMap map = session.runtime().shardMaps().current();
        int[] shardOfRow = new int[split.rows().size()];
        boolean oneShard = true;
        for (int i = 0; i < shardOfRow.length; i++) {
            KeyValue key = split.rows().get(i).key();
            int shard = session.runtime().resolver().shardOf(split.keyspace(), key, exec.values(), map);
            if (shard < 0) {
                runner.refuse("row " + (i + 1) + " of the INSERT into " + split.table() + " has a sharding key that"
                        + " no shard holds (NULL, not a whole number, or outside every configured range of keyspace "
                        + split.keyspace() + ")");
                return;
            }
            shardOfRow[i] = shard;
            oneShard &= shard == shardOfRow[0];
        }
        if (oneShard) {
            Plan.Route route = Plan.Route.of(split.kind(), new Target.Shard(shardOfRow[0]), Plan.Access.WRITE, null);
            runner.single(route, shardOfRow[0], exec);
            return;
        }
        byte[][] rows = renderRows(split, exec);
        byte[] head = render(split.head(), exec);
        byte[] tail = render(split.tail(), exec);
        send(head, rows, tail, shardOfRow, -1, exec);
    }

    private void withGeneratedKeys(Plan.InsertSplit split, long[] ids, byte[][] rows, byte[] columnsHead,
                                   byte[] columnsRest, byte[] tail, byte[] head) {
        ShardMap map = session.runtime().shardMaps().current();
        int[] shardOfRow = new int[rows.length];
        byte[][] withIds = new byte[rows.length][];
        for (int i = 0; i < rows.length; i++) {
            shardOfRow[i] = session.runtime().resolver().shardOf(split.keyspace(),
                    io.cleave.router.keyspace.ShardKey.of(ids[i]), map);
            if (shardOfRow[i] < 0) {
                session.error(1235, "42000", "generated " + split.missingKeyColumn() + " " + ids[i]
                        + " is outside every configured range of keyspace " + split.keyspace());
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
        send(newHead.toByteArray(), withIds, tail, shardOfRow, ids[0], null);
    }

    /** One statement per shard with that shard's rows; answers with the combined OK. */
    private void send(byte[] head, byte[][] rows, byte[] tail, int[] shardOfRow, long firstGeneratedId,
                      StatementRunner.Execution exec) {
        List<Integer> shards = new ArrayList<>();
        for (int s : shardOfRow) {
            if (!shards.contains(s)) {
                shards.add(s);
            }
        }
        session.metrics().command(session.currentCommand(), shards.size() > 1 ? RouteKind.MULTI_SHARD
                : RouteKind.SINGLE_SHARD);
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
        if (exec != null && exec.binary()) {
            exec.statement().clearLongData();
        }
        runner.writeToShards(targets, statements, true, false, "INSERT", firstGeneratedId);
    }

    private static byte[][] renderRows(Plan.InsertSplit split, StatementRunner.Execution exec) {
        byte[][] rows = new byte[split.rows().size()][];
        for (int i = 0; i < rows.length; i++) {
            Plan.InsertRow row = split.rows().get(i);
            rows[i] = render(new SqlTemplate.Tokens(row.first(), row.end()), exec);
        }
        return rows;
    }

    private static byte[] render(SqlTemplate.Tokens tokens, StatementRunner.Execution exec) {
        if (tokens.first() >= tokens.end()) {
            return new byte[0];
        }
        Analysis analysis = exec.analysis();
        ParameterValues values = exec.values();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SqlRenderer.append(out, tokens, analysis, values);
        return out.toByteArray();
    }
}
