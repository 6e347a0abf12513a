package io.cleave.proxy.deadlock;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.ShardConnector;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.server.RowCollector;
import io.cleave.proxy.server.ShardAdmin;
import io.cleave.proxy.server.ShardSlots;
import io.netty.channel.EventLoop;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Reads shards' lock waits and stops victims' statements, over one control connection per shard
 * that the detector keeps for itself: outside the pools and their caps, so a shard whose pool is
 * full of waiting statements (perhaps the very deadlock) still answers. Opened when first needed
 * and again after a shard restarted. Everything runs on one event loop.
 */
final class ShardLockReader implements AutoCloseable {

    private final ShardSlots slots;
    private final EventLoop loop;
    private final BackendConnection[] connections = new BackendConnection[ShardSlots.CAPACITY];
    /** The connector each connection came from: a shard replaced in its slot gets a new connection. */
    private final ShardConnector[] from = new ShardConnector[ShardSlots.CAPACITY];
    private final LockQueries[] queries = new LockQueries[ShardSlots.CAPACITY];

    ShardLockReader(ShardSlots slots, EventLoop loop) {
        this.slots = slots;
        this.loop = loop;
    }

    /** The shards whose locks are read: the local ones (an import's source takes no part in transactions across shards). */
    List<Integer> shards() {
        List<Integer> out = new ArrayList<>();
        for (int s = 0, n = slots.extent(); s < n; s++) {
            if (slots.isLocal(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /** The shard's lock waits and open transactions, read in one round trip (one version of InnoDB's view). */
    CompletableFuture<ShardLocks> read(int shard) {
        CompletableFuture<ShardLocks> out = new CompletableFuture<>();
        loop.execute(() -> withConnection(shard, out, conn -> {
            LockQueries q = queries[shard];
            CompletableFuture<List<ShardAdmin.Row>> waits = new CompletableFuture<>();
            CompletableFuture<List<ShardAdmin.Row>> transactions = new CompletableFuture<>();
            conn.send(conn.queryFrame(q.waits()), ResponseKind.RESULT, new RowCollector(waits));
            conn.send(conn.queryFrame(q.transactions()), ResponseKind.RESULT, new RowCollector(transactions));
            conn.flush();
            waits.thenCombine(transactions, (w, t) -> parse(shard, w, t)).whenComplete((locks, error) -> {
                if (error != null) {
                    out.completeExceptionally(error);
                } else {
                    out.complete(locks);
                }
            });
        }));
        return out;
    }

    /** Stops the statement {@code thread} runs on {@code shard} (by its query id where the server has one). */
    CompletableFuture<List<ShardAdmin.Row>> kill(int shard, long thread, Long queryId) {
        CompletableFuture<List<ShardAdmin.Row>> out = new CompletableFuture<>();
        loop.execute(() -> withConnection(shard, out, conn -> {
            conn.send(conn.queryFrame(queries[shard].kill(thread, queryId)), ResponseKind.RESULT, new RowCollector(out));
            conn.flush();
        }));
        return out;
    }

    private void withConnection(int shard, CompletableFuture<?> out, Consumer<BackendConnection> then) {
        BackendConnection conn = connections[shard];
        ShardConnector connector = slots.get(shard);
        if (conn != null && conn.isUsable() && from[shard] == connector) {
            then.accept(conn);
            return;
        }
        if (conn != null) {
            conn.close();
        }
        connections[shard] = null;
        if (connector == null) {
            out.completeExceptionally(new IllegalStateException("there is no shard " + shard));
            return;
        }
        from[shard] = connector;
        connector.connect(loop, io.cleave.proxy.backend.ShardLogin.SHARD_ACCOUNT, 0).addListener(f -> {
            if (!f.isSuccess()) {
                out.completeExceptionally(f.cause());
                return;
            }
            BackendConnection opened = (BackendConnection) f.getNow();
            connections[shard] = opened;
            queries[shard] = LockQueries.forServer(opened.server());
            then.accept(opened);
        });
    }

    static ShardLocks parse(int shard, List<ShardAdmin.Row> waitRows, List<ShardAdmin.Row> transactionRows) {
        List<ShardLocks.LockWait> waits = new ArrayList<>(waitRows.size());
        for (ShardAdmin.Row r : waitRows) {
            waits.add(new ShardLocks.LockWait(number(r.get(0)), number(r.get(1)),
                    lock(r.get(2), r.get(3), r.get(4), r.get(5))));
        }
        Map<Long, ShardLocks.ShardTransaction> transactions = new HashMap<>();
        for (ShardAdmin.Row r : transactionRows) {
            long thread = number(r.get(0));
            Long queryId = r.get(4) == null ? null : number(r.get(4));
            transactions.put(thread, new ShardLocks.ShardTransaction(thread, r.get(1), number(r.get(2)), r.get(3),
                    queryId));
        }
        return new ShardLocks(shard, waits, transactions);
    }

    /** E.g. {@code X record lock on `bank`.`accounts` index PRIMARY}. */
    static String lock(String mode, String type, String table, String index) {
        StringBuilder s = new StringBuilder();
        s.append(mode == null ? "?" : mode);
        if (type != null) {
            s.append(' ').append(type.toLowerCase(java.util.Locale.ROOT));
        }
        s.append(" lock");
        if (table != null) {
            s.append(" on ").append(table);
        }
        if (index != null) {
            s.append(" index ").append(index);
        }
        return s.toString();
    }

    private static long number(String text) {
        if (text == null) {
            return 0;
        }
        try {
            return Long.parseLong(text.trim());
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    @Override
    public void close() {
        loop.execute(() -> {
            for (int s = 0; s < connections.length; s++) {
                if (connections[s] != null) {
                    connections[s].close();
                    connections[s] = null;
                }
            }
        });
    }
}
