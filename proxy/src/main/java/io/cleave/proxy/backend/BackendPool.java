package io.cleave.proxy.backend;

import io.cleave.proxy.protocol.ServerStatus;
import io.netty.channel.EventLoop;
import io.netty.util.concurrent.ScheduledFuture;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * The backend connections one event loop keeps to one shard. Only that loop touches it, so it
 * has no locks; a client on the loop borrows a connection for one statement (or one transaction)
 * and gives it back, which is how thousands of clients share a few connections.
 *
 * <p>The shard sees bounded concurrency: at most {@code limit} connections from this loop, and a
 * borrower beyond that waits in line until one is returned or its timeout passes. Connections
 * are kept per {@link ShardLogin}: the account they are logged in as (so the shard checks each
 * statement against its client's privileges) and the response profile (the capability flags that
 * shape responses, see {@code Capabilities.RESPONSE_SHAPING}); the limit spans all of them, and a
 * borrower of one login waiting for room closes an idle connection of another. A connection of a
 * client's account that logged in before the grant tables last changed through the proxy is
 * closed instead of lent again (see {@link ShardLogins#accountsChanged()}).
 */
public final class BackendPool {

    private static final Logger log = LoggerFactory.getLogger(BackendPool.class);

    private final class Waiter implements Runnable {
        final ShardLogin login;
        final AcquireCallback callback;
        final long since = System.nanoTime();
        ScheduledFuture<?> timeout;

        Waiter(ShardLogin login, AcquireCallback callback) {
            this.login = login;
            this.callback = callback;
        }

        @Override
        public void run() {
            if (waiters.remove(this)) {
                metrics.waitTimedOut(shard());
                callback.failed(new ShardBusyException(shard(),
                        TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - since), limit));
            }
        }
    }

    private final EventLoop loop;
    private final ShardConnector connector;
    private final int limit;
    private final long acquireTimeoutMillis;
    private final PoolMetrics metrics;
    /** The grant tables' generation: connections of clients' accounts older than it are not lent again. */
    private final ShardLogins logins;
    /** Idle connections by {@link ShardLogin#slot()}; grown as logins appear. */
    private ArrayDeque<BackendConnection>[] idleByLogin;
    private final ArrayDeque<Waiter> waiters = new ArrayDeque<>();
    private int open;
    private int inUse;
    /** Give-backs of a connection that was back already: each a caller's mistake, ignored and logged. */
    private int repeatedGiveBacks;
    private boolean closed;
    private final PipelineWindow pipeline;

    public BackendPool(EventLoop loop, ShardConnector connector, int limit, long acquireTimeoutMillis,
                       PoolMetrics metrics, ShardLogins logins) {
        this(loop, connector, limit, acquireTimeoutMillis, metrics, 1, logins);
    }

    /**
     * @param pipelineDepth the most commands of different borrowers one connection carries at once
     *                      ({@link #joinPipeline}); 1 turns pipelining off
     */
    @SuppressWarnings("unchecked")
    public BackendPool(EventLoop loop, ShardConnector connector, int limit, long acquireTimeoutMillis,
                       PoolMetrics metrics, int pipelineDepth, ShardLogins logins) {
        this.pipeline = new PipelineWindow(loop, pipelineDepth);
        this.loop = loop;
        this.connector = connector;
        this.limit = limit;
        this.acquireTimeoutMillis = acquireTimeoutMillis;
        this.metrics = metrics;
        this.logins = logins;
        this.idleByLogin = new ArrayDeque[Math.max(8, logins.count())];
    }

    public int shard() {
        return connector.endpoint().shard();
    }

    public ShardConnector connector() {
        return connector;
    }

    public EventLoop loop() {
        return loop;
    }

    public int open() {
        return open;
    }

    public int inUse() {
        return inUse;
    }

    public int idle() {
        return open - inUse;
    }

    public int waiting() {
        return waiters.size();
    }

    /** How many give-backs were ignored because the connection had been given back already. */
    public int repeatedGiveBacks() {
        return repeatedGiveBacks;
    }

    /** Borrows a connection logged in as {@code login}; the callback runs on this pool's loop. */
    public void acquire(ShardLogin login, AcquireCallback callback) {
        if (closed) {
            callback.failed(new IllegalStateException("proxy is shutting down"));
            return;
        }
        BackendConnection idle = pollIdle(login);
        if (idle != null) {
            lend(idle, callback);
            return;
        }
        if (open >= limit && !closeAnIdleConnection()) {
            Waiter waiter = new Waiter(login, callback);
            waiter.timeout = loop.schedule(waiter, acquireTimeoutMillis, TimeUnit.MILLISECONDS);
            waiters.add(waiter);
            ConnectionWaiter who = callback.waiter();
            if (who != null) {
                who.waitingInLine(shard());
            }
            return;
        }
        openFor(login, callback);
    }

    /** Whether statements of several borrowers may share a connection ({@code proxy.pipeline_depth} above 1). */
    public boolean pipelines() {
        return pipeline.enabled();
    }

    /**
     * Lends, as one more borrower, a connection on which a statement that may share was written in
     * this event-loop pass and which {@code fits} the caller's statement; null when there is none
     * (the caller then {@link #acquire acquires} as usual). The caller writes its command without a
     * flush and gives the connection back with {@link #release} as any borrower does.
     */
    public BackendConnection joinPipeline(ShardLogin login, Predicate<BackendConnection> fits) {
        if (closed || !pipeline.enabled()) {
            return null;
        }
        BackendConnection c = pipeline.find(login, conn -> conn.borrowed() && fits.test(conn));
        if (c != null) {
            c.sharers(c.sharers() + 1);
            c.sharedThisLease(true);
            metrics.statementPipelined(shard());
        }
        return c;
    }

    /**
     * A statement that may share {@code connection} was written on it (without a flush): the pass
     * ends with one flush, and until then other borrowers may join it when {@code followers}
     * (false for a statement that may wait for a row lock: nobody waits behind it).
     */
    public void holdForPipeline(BackendConnection connection, boolean followers) {
        pipeline.hold(connection, followers);
    }

    /** Statements written behind another borrower's on one connection so far. */
    public long pipelinedStatements() {
        return pipeline.joined();
    }

    /** Who stands in line now, in order (waiters that named nobody are left out). */
    public List<ConnectionWaiter> waitersInLine() {
        List<ConnectionWaiter> out = new ArrayList<>(waiters.size());
        for (Waiter w : waiters) {
            ConnectionWaiter who = w.callback.waiter();
            if (who != null) {
                out.add(who);
            }
        }
        return out;
    }

    /**
     * Takes {@code who} out of the line (a deadlock victim): its request fails with {@code cause}.
     * Returns whether it was in line.
     */
    public boolean cancel(ConnectionWaiter who, Throwable cause) {
        List<Waiter> out = new ArrayList<>(1);
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (w.callback.waiter() == who) {
                it.remove();
                w.timeout.cancel(false);
                out.add(w);
            }
        }
        // Told after the line is settled: a failed request may give connections back at once.
        for (Waiter w : out) {
            w.callback.failed(cause);
        }
        return !out.isEmpty();
    }

    /**
     * Gives a connection back after its statement or transaction is done. A connection given
     * back twice counts once: the second call is a caller's mistake, logged, never a second free
     * slot (which would let two borrowers share one connection and the in-use count go negative).
     */
    public void release(BackendConnection connection) {
        if (!connection.borrowed()) {
            repeatedGiveBacks++;
            log.warn("{} was given back again; ignored", connection, new IllegalStateException("released twice"));
            return;
        }
        if (connection.sharers() > 0) {
            // One of several borrowers whose statements were pipelined on it: the others still wait there.
            connection.sharers(connection.sharers() - 1);
            return;
        }
        connection.borrowed(false);
        inUse--;
        boolean wasShared = connection.sharedThisLease();
        connection.sharedThisLease(false);
        if (!connection.isUsable() || closed) {
            forget(connection);
            return;
        }
        if (wasShared && connection.hasPendingResponses()) {
            // Its last borrower is done but answers are still due, to borrowers that went away
            // (pipelined statements of clients that left): nobody is left to read them, and the
            // next borrower must not wait behind them. As for any client that leaves mid-statement.
            forget(connection);
            connection.abandon();
            return;
        }
        if (ServerStatus.has(connection.lastStatus(), ServerStatus.IN_TRANS)) {
            // An open transaction must not reach the next borrower, who would write into it unknowingly.
            log.warn("{} came back with a transaction open: closed instead of pooled", connection);
            forget(connection);
            connection.close();
            return;
        }
        if (outdated(connection)) {
            forget(connection);
            connection.close();
            return;
        }
        Waiter waiter = firstWaiterFor(connection.login());
        if (waiter != null) {
            lend(connection, waiter.callback);
            return;
        }
        if (!waiters.isEmpty()) {
            // Someone waits for another profile: make room for them.
            forget(connection);
            connection.close();
            return;
        }
        connection.markIdle(System.nanoTime());
        idleQueue(connection.login()).push(connection);
    }

    /** A connection of a client's account that logged in before the grant tables last changed. */
    private boolean outdated(BackendConnection connection) {
        return !connection.login().isShardAccount() && connection.generation() != logins.generation();
    }

    /** A connection broke (server gone, protocol error): it no longer counts. */
    void onBroken(BackendConnection connection) {
        ArrayDeque<BackendConnection> queue = idleQueue(connection.login());
        if (queue.remove(connection)) {
            forget(connection);
        }
        // In use: release() will forget it when the borrower gives it back.
    }

    /** Closes idle connections unused for longer than {@code maxIdleNanos}, and those of outdated grants. */
    public void evictIdle(long maxIdleNanos) {
        long now = System.nanoTime();
        for (ArrayDeque<BackendConnection> queue : idleByLogin) {
            if (queue == null) {
                continue;
            }
            Iterator<BackendConnection> it = queue.descendingIterator();
            while (it.hasNext()) {
                BackendConnection c = it.next();
                if (now - c.idleSinceNanos() > maxIdleNanos || !c.isUsable() || outdated(c)) {
                    it.remove();
                    open--;
                    c.close();
                }
            }
        }
    }

    /** Closes every idle connection, e.g. after the shard restarted. */
    public void closeIdle() {
        for (ArrayDeque<BackendConnection> queue : idleByLogin) {
            while (queue != null && !queue.isEmpty()) {
                open--;
                queue.poll().close();
            }
        }
    }

    public void close() {
        closed = true;
        closeIdle();
        while (!waiters.isEmpty()) {
            Waiter w = waiters.poll();
            w.timeout.cancel(false);
            w.callback.failed(new IllegalStateException("proxy is shutting down"));
        }
    }

    private void openFor(ShardLogin login, AcquireCallback callback) {
        open++;
        inUse++;
        connector.connect(loop, login, logins.generation()).addListener(f -> {
            if (f.isSuccess()) {
                BackendConnection connection = (BackendConnection) f.getNow();
                connection.pool(this);
                metrics.connectionOpened(shard());
                if (closed) {
                    inUse--;
                    open--;
                    connection.close();
                    callback.failed(new IllegalStateException("proxy is shutting down"));
                    return;
                }
                connection.borrowed(true);
                callback.acquired(connection);
            } else {
                inUse--;
                open--;
                metrics.connectFailed(shard());
                callback.failed(f.cause());
                // Waiters would otherwise sit until their timeout although a slot is free.
                serveWaiter();
            }
        });
    }

    private void lend(BackendConnection connection, AcquireCallback callback) {
        inUse++;
        connection.borrowed(true);
        callback.acquired(connection);
    }

    private void forget(BackendConnection connection) {
        open--;
        serveWaiter();
    }

    private void serveWaiter() {
        if (!waiters.isEmpty() && open < limit) {
            Waiter w = waiters.poll();
            w.timeout.cancel(false);
            openFor(w.login, w.callback);
        }
    }

    private Waiter firstWaiterFor(ShardLogin login) {
        for (Iterator<Waiter> it = waiters.iterator(); it.hasNext(); ) {
            Waiter w = it.next();
            if (w.login == login) {
                it.remove();
                w.timeout.cancel(false);
                return w;
            }
        }
        return null;
    }

    private BackendConnection pollIdle(ShardLogin login) {
        ArrayDeque<BackendConnection> queue = idleQueue(login);
        while (!queue.isEmpty()) {
            BackendConnection c = queue.pop();
            if (c.isUsable() && !outdated(c)) {
                return c;
            }
            open--;
            c.close();
        }
        return null;
    }

    private boolean closeAnIdleConnection() {
        for (ArrayDeque<BackendConnection> queue : idleByLogin) {
            BackendConnection c = queue == null ? null : queue.pollLast();
            if (c != null) {
                open--;
                c.close();
                return true;
            }
        }
        return false;
    }

    private ArrayDeque<BackendConnection> idleQueue(ShardLogin login) {
        int slot = login.slot();
        if (slot >= idleByLogin.length) {
            idleByLogin = java.util.Arrays.copyOf(idleByLogin, Math.max(slot + 1, idleByLogin.length * 2));
        }
        ArrayDeque<BackendConnection> queue = idleByLogin[slot];
        if (queue == null) {
            queue = new ArrayDeque<>();
            idleByLogin[slot] = queue;
        }
        return queue;
    }
}
