package io.cleave.proxy.metrics;

import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToDoubleFunction;

/**
 * Proxy meters in a Micrometer registry. Counters and timers are resolved once and kept in
 * arrays indexed by enum ordinal or shard, so the per-statement cost is an increment.
 */
public final class MicrometerProxyMetrics implements ProxyMetrics {

    public static final String QUERIES = "cleave.proxy.queries";
    public static final String SHARD_LATENCY = "cleave.proxy.shard.latency";
    public static final String ERRORS = "cleave.proxy.errors";
    public static final String CLIENT_CONNECTIONS = "cleave.proxy.client.connections";
    public static final String BACKEND_CONNECTIONS = "cleave.proxy.backend.connections";
    public static final String BACKEND_CONNECT_FAILURES = "cleave.proxy.backend.connect.failures";
    public static final String BACKEND_WAIT_TIMEOUTS = "cleave.proxy.backend.wait.timeouts";
    public static final String PIPELINED_STATEMENTS = "cleave.proxy.backend.pipelined.statements";
    public static final String AUTH_FAILURES = "cleave.proxy.auth.failures";
    /** Client connections ended before login for another reason than a wrong password; tag: reason ({@link LoginAbort}). */
    public static final String LOGIN_ABORTS = "cleave.proxy.login.aborts";
    /** Ended transactions; tags: kind ({@link TransactionKind}), outcome ({@link TransactionOutcome}). */
    public static final String TRANSACTIONS = "cleave.proxy.transactions";
    /** Commits of transactions spanning shards, from their start to the client's answer. */
    public static final String DISTRIBUTED_COMMIT_LATENCY = "cleave.proxy.distributed.commit.latency";
    /** Prepared XA branches the last recovery pass found and could not settle. */
    public static final String XA_IN_DOUBT = "cleave.proxy.xa.in.doubt";
    /** In-doubt XA branches settled; tags: by (recovery|operator), decision (commit|rollback). */
    public static final String XA_SETTLED = "cleave.proxy.xa.settled";
    /** Deadlocks across shards the proxy broke by rolling back a victim. */
    public static final String DEADLOCKS = "cleave.proxy.deadlocks";
    /** Looks at the shards' lock waits (each a query per shard) while a cross-shard transaction waited. */
    public static final String DEADLOCK_CHECKS = "cleave.proxy.deadlock.checks";

    private final MeterRegistry registry;
    private final Counter[][] queries = new Counter[CommandCode.values().length][RouteKind.values().length];
    private final Timer[] latency;
    private final Counter[] connectFailures;
    private final Counter[] waitTimeouts;
    private final Counter[] pipelined;
    private final ConcurrentHashMap<Integer, Counter> errors = new ConcurrentHashMap<>();
    private final Counter authFailures;
    private final Counter[] loginAborts = new Counter[LoginAbort.values().length];
    private final AtomicInteger clients = new AtomicInteger();
    private final Counter[][] transactions = new Counter[TransactionKind.values().length][TransactionOutcome.values().length];
    private final Timer distributedCommits;
    private final AtomicInteger inDoubt = new AtomicInteger();
    /** [by recovery?1:0][committed?1:0] */
    private final Counter[][] settled = new Counter[2][2];
    private final Counter deadlocks;
    private final Counter deadlockChecks;
    private final CutMeters cuts;

    public MicrometerProxyMetrics(MeterRegistry registry, int shards) {
        this.registry = registry;
        for (CommandCode c : CommandCode.values()) {
            for (RouteKind r : RouteKind.values()) {
                queries[c.ordinal()][r.ordinal()] = Counter.builder(QUERIES)
                        .description("Client commands by command and how they were routed")
                        .tag("command", c.metricName()).tag("route", r.tag()).register(registry);
            }
        }
        // Shards come and go while the proxy runs: room for every slot, a shard's meters made on first use.
        latency = new Timer[io.cleave.proxy.server.ShardSlots.CAPACITY];
        connectFailures = new Counter[latency.length];
        waitTimeouts = new Counter[latency.length];
        pipelined = new Counter[latency.length];
        for (int s = 0; s < shards; s++) {
            shardMeters(s);
        }
        authFailures = Counter.builder(AUTH_FAILURES).description("Failed client logins").register(registry);
        for (LoginAbort a : LoginAbort.values()) {
            loginAborts[a.ordinal()] = Counter.builder(LOGIN_ABORTS)
                    .description("Client connections ended before login: timeout, oversized or malformed packets, throttling")
                    .tag("reason", a.tag()).register(registry);
        }
        Gauge.builder(CLIENT_CONNECTIONS, clients, AtomicInteger::get).description("Open client connections")
                .strongReference(true).register(registry);
        for (TransactionKind k : TransactionKind.values()) {
            for (TransactionOutcome o : TransactionOutcome.values()) {
                transactions[k.ordinal()][o.ordinal()] = Counter.builder(TRANSACTIONS)
                        .description("Transactions ended, by what they spanned and how they ended")
                        .tag("kind", k.tag()).tag("outcome", o.tag()).register(registry);
            }
        }
        distributedCommits = Timer.builder(DISTRIBUTED_COMMIT_LATENCY)
                .description("Commits of transactions spanning shards, from their start to the client's answer")
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(100_000))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
        Gauge.builder(XA_IN_DOUBT, inDoubt, AtomicInteger::get)
                .description("Prepared XA branches the last recovery pass found and could not settle")
                .strongReference(true).register(registry);
        for (int by = 0; by < 2; by++) {
            for (int committed = 0; committed < 2; committed++) {
                settled[by][committed] = Counter.builder(XA_SETTLED)
                        .description("In-doubt XA branches committed or rolled back, by recovery or an operator")
                        .tag("by", by == 1 ? "recovery" : "operator").tag("decision", committed == 1 ? "commit" : "rollback")
                        .register(registry);
            }
        }
        deadlocks = Counter.builder(DEADLOCKS)
                .description("Deadlocks across shards the proxy broke by rolling back a victim").register(registry);
        deadlockChecks = Counter.builder(DEADLOCK_CHECKS)
                .description("Looks at every shard's lock waits while a statement of a cross-shard transaction waited")
                .register(registry);
        cuts = new CutMeters(registry);
    }

    /** Registers the meters of one shard (again for a shard already known: Micrometer returns the same meters). */
    private synchronized void shardMeters(int s) {
        if (latency[s] != null) {
            return;
        }
        connectFailures[s] = Counter.builder(BACKEND_CONNECT_FAILURES).tag("shard", Integer.toString(s)).register(registry);
        waitTimeouts[s] = Counter.builder(BACKEND_WAIT_TIMEOUTS).tag("shard", Integer.toString(s)).register(registry);
        pipelined[s] = Counter.builder(PIPELINED_STATEMENTS)
                .description("Statements written behind another client's on one backend connection (proxy.pipeline_depth)")
                .tag("shard", Integer.toString(s)).register(registry);
        latency[s] = Timer.builder(SHARD_LATENCY)
                .description("Time from sending a statement to a shard to the end of its response")
                .tag("shard", Integer.toString(s))
                .publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(20_000))
                .maximumExpectedValue(Duration.ofSeconds(30))
                .register(registry);
    }

    /** Registers gauges of one shard's backend pool use by state ("in_use", "idle", "waiting"), and its other meters. */
    public void backendGauges(int shard, BackendPoolStats stats) {
        shardMeters(shard);
        gauge(shard, "in_use", st -> st.inUse(shard), stats);
        gauge(shard, "idle", st -> st.idle(shard), stats);
        gauge(shard, "waiting", st -> st.waiting(shard), stats);
    }

    private void gauge(int shard, String state, ToDoubleFunction<BackendPoolStats> f, BackendPoolStats stats) {
        // Held strongly: nothing else keeps the stats view alive, and a collected one reads NaN.
        Gauge.builder(BACKEND_CONNECTIONS, stats, f).tag("shard", Integer.toString(shard)).tag("state", state)
                .description("Backend connections to each shard by state").strongReference(true).register(registry);
    }

    @Override
    public void command(CommandCode command, RouteKind route) {
        queries[command.ordinal()][route.ordinal()].increment();
    }

    @Override
    public void shardLatency(int shard, long nanos) {
        if (shard >= 0 && shard < latency.length) {
            Timer t = latency[shard];
            if (t == null) {
                shardMeters(shard);
                t = latency[shard];
            }
            t.record(nanos, TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void error(int code) {
        errors.computeIfAbsent(code, c -> Counter.builder(ERRORS).description("Errors returned to clients by code")
                .tag("code", Integer.toString(c)).register(registry)).increment();
    }

    @Override
    public void clientConnected() {
        clients.incrementAndGet();
    }

    @Override
    public void clientDisconnected() {
        clients.decrementAndGet();
    }

    @Override
    public void authFailed(String user) {
        authFailures.increment();
    }

    @Override
    public void loginAborted(LoginAbort reason) {
        loginAborts[reason.ordinal()].increment();
    }

    @Override
    public void connectFailed(int shard) {
        if (shard >= 0 && shard < connectFailures.length) {
            shardMeters(shard);
            connectFailures[shard].increment();
        }
    }

    @Override
    public void waitTimedOut(int shard) {
        if (shard >= 0 && shard < waitTimeouts.length) {
            shardMeters(shard);
            waitTimeouts[shard].increment();
        }
    }

    @Override
    public void statementPipelined(int shard) {
        if (shard >= 0 && shard < pipelined.length) {
            shardMeters(shard);
            pipelined[shard].increment();
        }
    }

    @Override
    public void transactionEnded(TransactionKind kind, TransactionOutcome outcome) {
        transactions[kind.ordinal()][outcome.ordinal()].increment();
    }

    @Override
    public void distributedCommit(long nanos) {
        distributedCommits.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void inDoubtAfterRecovery(int branches) {
        inDoubt.set(branches);
    }

    @Override
    public void branchSettled(boolean byRecovery, boolean committed) {
        settled[byRecovery ? 1 : 0][committed ? 1 : 0].increment();
    }

    @Override
    public void deadlockCheck() {
        deadlockChecks.increment();
    }

    @Override
    public void deadlockBroken() {
        deadlocks.increment();
    }

    @Override
    public io.cleave.proxy.cut.CutMetrics cuts() {
        return cuts;
    }

    /** Read side of the pools for the gauges (plain int reads of loop-confined counters). */
    public interface BackendPoolStats {
        int inUse(int shard);

        int idle(int shard);

        int waiting(int shard);
    }
}
