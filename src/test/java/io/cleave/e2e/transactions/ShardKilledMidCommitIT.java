package io.cleave.e2e.transactions;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RawMysqlClient;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.manager.daemon.CleaveProxyService;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.manager.supervisor.RestartPolicy;
import io.cleave.proxy.server.CommitHooks;
import io.cleave.proxy.server.CommitStep;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static io.cleave.e2e.transactions.Bank.execute;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A shard's mariadbd is killed (SIGKILL) at each step of a two-phase commit across three shards,
 * by a commit hook the test gives the running proxy, so the kill lands exactly at the step: either
 * the coordinator (shard 1, the transfer's first shard) or the branch that commits last (shard 2).
 * The supervisor restarts the shard and recovery settles the branches. Whatever the client was
 * told must be true: success only if the transfer is committed, a plain error only if it is not;
 * an error that says the outcome is being settled may go either way. Afterwards the transfer is
 * entirely applied or entirely absent, the total is unchanged and no branch stays prepared.
 */
@ServerMatrix
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ShardKilledMidCommitIT {

    private static final int SHARDS = 3;
    /** The transfer: 100 from shard 1 (the coordinator), 60 to shard 0, 40 to shard 2 (committed last). */
    private static final int FROM = 110;
    private static final int TO_FIRST = 10;
    private static final int TO_LAST = 210;

    enum Victim {
        COORDINATOR(1), BRANCH(2);

        final int shard;

        Victim(int shard) {
            this.shard = shard;
        }
    }

    private record Outcome(CommitStep step, Victim victim, String client, boolean applied) {
    }

    private CleaveTestHome home;
    private RunningDaemon daemon;
    private final AtomicReference<CleaveProxyService> proxy = new AtomicReference<>();
    private final List<Outcome> outcomes = new ArrayList<>();

    @BeforeAll
    void start() throws SQLException {
        home = CleaveTestHome.builder().shards(SHARDS).extraYaml(Bank.sharding(SHARDS))
                // Every case kills a shard: more crashes than a crash loop allows by default.
                .restartPolicy(new RestartPolicy(Duration.ofMillis(100), Duration.ofSeconds(1), 50, Duration.ofMinutes(10),
                        Duration.ofSeconds(30), Duration.ofMinutes(2)))
                .proxy(context -> {
                    CleaveProxyService service = new CleaveProxyService(context);
                    proxy.set(service);
                    return service;
                })
                .create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", "")) {
            Bank.create(c);
            Bank.open(c, "transfer", 1000, FROM, TO_FIRST, TO_LAST);
        }
    }

    @AfterAll
    void stop() {
        StringBuilder table = new StringBuilder("step x killed shard -> client -> final state\n");
        for (Outcome o : outcomes) {
            table.append(String.format("%-15s %-11s (shard %d) -> %s -> %s%n", o.step(), o.victim(), o.victim().shard,
                    o.client(), o.applied() ? "applied" : "absent"));
        }
        System.out.println(table);
        if (daemon != null) {
            daemon.close();
        }
        home.close();
    }

    static Stream<Arguments> cases() {
        List<Arguments> out = new ArrayList<>();
        for (Victim v : Victim.values()) {
            for (CommitStep s : CommitStep.values()) {
                out.add(Arguments.of(s, v));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{1} killed at {0}")
    @MethodSource("cases")
    void whatTheClientIsToldIsTrueAndTheTransferIsAllOrNothing(CommitStep step, Victim victim) throws Exception {
        awaitEveryShardRunning();
        Map<Integer, Long> before = Bank.balancesOnShards(daemon, FROM, TO_FIRST, TO_LAST);
        long total = Bank.totalOnShards(daemon, SHARDS);
        long victimPid = daemon.status(victim.shard).pid();
        ShardKiller killer = new ShardKiller(step, victimPid);
        proxy.get().server().runtime().commitHooks(killer);

        String client;
        boolean ambiguous = false;
        // A COMMIT that never answers fails the case instead of hanging it.
        try (Connection c = daemon.connectProxy("bank", "socketTimeout=30000")) {
            execute(c, "BEGIN");
            execute(c, "UPDATE accounts SET balance = balance - 100 WHERE id = " + FROM);
            execute(c, "UPDATE accounts SET balance = balance + 60 WHERE id = " + TO_FIRST);
            execute(c, "UPDATE accounts SET balance = balance + 40 WHERE id = " + TO_LAST);
            try {
                execute(c, "COMMIT");
                client = "OK";
            } catch (SQLException e) {
                client = "ERROR " + e.getErrorCode() + " (" + e.getSQLState() + ") " + e.getMessage();
                ambiguous = e.getMessage().contains("being settled");
            }
            // The client is answered at the decision: the branches commit (and the hook runs) after.
            if (step == CommitStep.DURING_COMMIT && client.equals("OK")) {
                killer.awaitFired(Duration.ofSeconds(30));
            }
        } finally {
            proxy.get().server().runtime().commitHooks(CommitHooks.NONE);
        }
        assertThat(killer.fired).as("the hook killed shard %d at %s", victim.shard, step).isTrue();

        daemon.awaitStatus(victim.shard, s -> s.state() == InstanceState.RUNNING && s.pid() != null
                && s.pid() != victimPid, Duration.ofSeconds(60));
        Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(20));

        Map<Integer, Long> after = Bank.balancesOnShards(daemon, FROM, TO_FIRST, TO_LAST);
        boolean applied = after.get(FROM) == before.get(FROM) - 100;
        outcomes.add(new Outcome(step, victim, client, applied));

        assertThat(Bank.totalOnShards(daemon, SHARDS)).as("total").isEqualTo(total);
        if (applied) {
            assertThat(after).as("all of the transfer (client: %s)", client)
                    .containsEntry(TO_FIRST, before.get(TO_FIRST) + 60).containsEntry(TO_LAST, before.get(TO_LAST) + 40);
        } else {
            assertThat(after).as("none of the transfer (client: %s)", client).isEqualTo(before);
        }
        if (client.equals("OK")) {
            assertThat(applied).as("the client was told the transfer committed").isTrue();
        } else if (!ambiguous) {
            assertThat(applied).as("the client was told the transfer failed: %s", client).isFalse();
        }
        // Once the decision is committed the transfer must stand; before it, nothing can commit it.
        boolean decided = step == CommitStep.AFTER_DECISION || step == CommitStep.DURING_COMMIT
                || victim == Victim.BRANCH && step == CommitStep.AFTER_PREPARE;
        assertThat(applied).as("outcome of killing the %s at %s (client: %s)", victim, step, client).isEqualTo(decided);
    }

    /**
     * Not a shard but the client goes away, at AFTER_PREPARE: the commit must still end on every
     * shard (here: commit, since the decision is sent before the proxy reads the client's
     * disconnect), not leave prepared branches that recovery takes for a commit still running.
     */
    @Test
    void aClientThatDisconnectsDuringCommitLeavesNoPreparedBranch() throws Exception {
        awaitEveryShardRunning();
        Map<Integer, Long> before = Bank.balancesOnShards(daemon, FROM, TO_FIRST, TO_LAST);
        RawMysqlClient raw = RawMysqlClient.login(daemon.proxyPort(), "root", "", "bank");
        for (String sql : List.of("BEGIN", "UPDATE accounts SET balance = balance - 100 WHERE id = " + FROM,
                "UPDATE accounts SET balance = balance + 60 WHERE id = " + TO_FIRST,
                "UPDATE accounts SET balance = balance + 40 WHERE id = " + TO_LAST)) {
            assertThat(RawMysqlClient.isOk(raw.query(sql))).as(sql).isTrue();
        }
        proxy.get().server().runtime().commitHooks((step, xid) -> {
            if (step == CommitStep.AFTER_PREPARE) {
                try {
                    raw.close();
                    Thread.sleep(100);
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            }
        });
        try {
            raw.writePacket(0, "\u0003COMMIT".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
            Bank.awaitNothingOpen(daemon, SHARDS, Duration.ofSeconds(10));
        } finally {
            proxy.get().server().runtime().commitHooks(CommitHooks.NONE);
        }
        Map<Integer, Long> after = Bank.balancesOnShards(daemon, FROM, TO_FIRST, TO_LAST);
        assertThat(after).as("the whole transfer").containsEntry(FROM, before.get(FROM) - 100)
                .containsEntry(TO_FIRST, before.get(TO_FIRST) + 60).containsEntry(TO_LAST, before.get(TO_LAST) + 40);
    }

    private void awaitEveryShardRunning() throws InterruptedException {
        for (int shard = 0; shard < SHARDS; shard++) {
            daemon.awaitStatus(shard, s -> s.state() == InstanceState.RUNNING, Duration.ofSeconds(60));
        }
    }

    /** Kills one mariadbd, once, when the commit reaches its step, and waits until it is gone. */
    private static final class ShardKiller implements CommitHooks {
        private final CommitStep step;
        private final long pid;
        volatile boolean fired;
        private final java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);

        ShardKiller(CommitStep step, long pid) {
            this.step = step;
            this.pid = pid;
        }

        @Override
        public void at(CommitStep reached, String xid) {
            if (reached != step || fired) {
                return;
            }
            fired = true;
            try {
                ProcessHandle.of(pid).ifPresent(p -> {
                    p.destroyForcibly();
                    try {
                        p.onExit().get(10, TimeUnit.SECONDS);
                    } catch (Exception e) {
                        throw new IllegalStateException("mariadbd " + pid + " did not die", e);
                    }
                });
            } finally {
                done.countDown();
            }
        }

        /** Waits until the hook has run, if its step comes at all (a commit may end before it). */
        void awaitFired(Duration atMost) throws InterruptedException {
            done.await(atMost.toMillis(), TimeUnit.MILLISECONDS);
        }
    }
}
