package io.cleave.proxy.deadlock;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.ShardConnector;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.server.RowCollector;
import io.cleave.proxy.server.ShardAdmin;
import io.cleave.proxy.server.ShardSlots;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.Future;

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
    /** A connect under way to the shard, else null: everyone who needs the shard meanwhile waits for it. */
    @SuppressWarnings("unchecked")
    private final Future<BackendConnection>[] opening = new Future[ShardSlots.CAPACITY];
    /** Set on the loop by {@link #close}: a connect that ends after it closes its connection. */
    private boolean closed;

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
        Future<BackendConnection> pending = opening[shard];
        if (pending != null && from[shard] == connector) {
            // A shard that does not answer (stopped, overloaded) keeps its connect pending past the
            // detector's deadline, and the next look asks again: it waits for the same connect. A
            // second one would be opened too once the shard answered, and one of them kept by nobody.
            pending.addListener(f -> use(shard, f, out, then));
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
        Future<BackendConnection> connecting = connector.connect(loop, io.cleave.proxy.backend.ShardLogin.SHARD_ACCOUNT, 0);
        opening[shard] = connecting;
        // Listeners run in the order added: the connection is kept (or closed) before anyone uses it.
        connecting.addListener(f -> {
            if (opening[shard] == f) {
                opening[shard] = null;
            }
            if (!f.isSuccess()) {
                return;
            }
            BackendConnection opened = (BackendConnection) f.getNow();
            if (closed || from[shard] != connector) {
                opened.close();
                return;
            }
            connections[shard] = opened;
            queries[shard] = LockQueries.forServer(opened.server());
        });
        connecting.addListener(f -> use(shard, f, out, then));
    }

    /** Runs {@code then} on the shard's connection once {@code connect} ended, or fails {@code out}. */
    private void use(int shard, Future<?> connect, CompletableFuture<?> out, Consumer<BackendConnection> then) {
        if (!connect.isSuccess()) {
            out.completeExceptionally(connect.cause());
            return;
        }
        BackendConnection conn = connections[shard];
        if (conn == null || !conn.isUsable()) {
            out.completeExceptionally(new IllegalStateException("the control connection to shard " + shard
                    + " closed as it opened"));
            return;
        }
        then.accept(conn);
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
            closed = true;
            for (int s = 0; s < connections.length; s++) {
                if (connections[s] != null) {
                    connections[s].close();
                    connections[s] = null;
                }
            }
        });
    }
}
