package io.cleave.proxy.server;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.ShardConnector;
import io.cleave.proxy.backend.ResponseKind;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.EventLoop;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Blocking statements against one shard for the proxy's control work (bootstrap DDL, XA recovery,
 * admin commands): a fresh connection per call, off the client event loops' hot path.
 */
public final class ShardAdmin {

    /** A row of text values (null for SQL NULL). */
    public record Row(List<String> values) {
        public String get(int i) {
            return values.get(i);
        }
    }

    private final ShardSlots slots;
    private final EventLoopGroup loops;

    ShardAdmin(ShardSlots slots, EventLoopGroup loops) {
        this.slots = slots;
        this.loops = loops;
    }

    /** The local shards, in index order (attached servers hold nothing of the proxy's). */
    public java.util.List<Integer> localShards() {
        java.util.List<Integer> out = new java.util.ArrayList<>();
        for (int s = 0, n = slots.extent(); s < n; s++) {
            if (slots.isLocal(s)) {
                out.add(s);
            }
        }
        return out;
    }

    /** Runs {@code sql} (one statement) on {@code shard} and returns its rows. */
    public List<Row> query(int shard, String sql) throws ShardAdminException {
        EventLoop loop = loops.next();
        BackendConnection conn;
        try {
            ShardConnector connector = slots.get(shard);
            if (connector == null) {
                throw new ShardAdminException("there is no shard " + shard, true);
            }
            conn = connector.connect(loop, io.cleave.proxy.backend.ShardLogin.SHARD_ACCOUNT, 0).get(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ShardAdminException("interrupted connecting to shard " + shard);
        } catch (ExecutionException | TimeoutException e) {
            throw new ShardAdminException("shard " + shard + " unreachable: " + rootMessage(e), true);
        }
        try {
            CompletableFuture<List<Row>> result = new CompletableFuture<>();
            loop.execute(() -> {
                conn.send(conn.queryFrame(sql), ResponseKind.RESULT, new RowCollector(result));
                conn.flush();
            });
            return result.get(30, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new ShardAdminException("interrupted on shard " + shard);
        } catch (ExecutionException | TimeoutException e) {
            throw new ShardAdminException("shard " + shard + ": " + rootMessage(e));
        } finally {
            conn.close();
        }
    }

    private static String rootMessage(Throwable e) {
        Throwable t = e;
        while (t.getCause() != null) {
            t = t.getCause();
        }
        return t.getMessage() != null ? t.getMessage() : t.toString();
    }

    /** A control statement failed or its shard could not be reached. */
    public static final class ShardAdminException extends Exception {
        private final boolean unreachable;

        public ShardAdminException(String message) {
            this(message, false);
        }

        ShardAdminException(String message, boolean unreachable) {
            super(message);
            this.unreachable = unreachable;
        }

        /** No connection could be made: the shard is down (as opposed to a statement it refused). */
        public boolean unreachable() {
            return unreachable;
        }
    }
}
