package io.cleave.e2e.transactions;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.proxy.server.CommitStep;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.transactions.Bank.execute;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The daemon, run from the shipped jar in its own process, dies like kill -9 at each step of a
 * money transfer's two-phase commit across two shards ({@code -Dcleave.test.haltAt}). The shards
 * keep running; the next daemon adopts them and settles the in-doubt branches at start. The
 * transfer is then applied entirely if the decision was committed (AFTER_DECISION, DURING_COMMIT)
 * and not at all otherwise, the total is unchanged, and no shard keeps a prepared branch. The client
 * hears OK only for DURING_COMMIT (the commit is acknowledged once its decision is durable). One home
 * serves every step: each step's daemon adopts the shards the previous one left running.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class DaemonKilledMidCommitIT {

    private static final int SHARDS = 2;
    private static final int FROM = 1;
    private static final int TO = 101;
    private static final long AMOUNT = 100;

    private CleaveTestHome home;

    @BeforeAll
    void start() throws Exception {
        assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
        home = CleaveTestHome.builder().shards(SHARDS).extraYaml(Bank.sharding(SHARDS)).create();
        RunningDaemon daemon = home.start();
        try (Connection c = daemon.connectProxy("", "")) {
            Bank.create(c);
            Bank.open(c, "transfer", 1000, FROM, TO);
        } finally {
            daemon.closeLeavingInstancesRunning();
        }
    }

    @AfterAll
    void stop() {
        if (home != null) {
            home.close();
        }
    }

    @ParameterizedTest
    @EnumSource(CommitStep.class)
    void theTransferIsAllOrNothingWhenTheDaemonDiesAt(CommitStep step) throws Exception {
        Path log = home.root().resolve("halt-" + step + ".log");
        Process up = CleaveJar.up(home, log, "-Dcleave.test.haltAt=" + step);
        Map<Integer, Long> before;
        try {
            try (Connection c = CleaveJar.awaitProxy(home, up, log, "bank")) {
                before = balances(c);
                execute(c, "BEGIN");
                execute(c, "UPDATE bank.accounts SET balance = balance - " + AMOUNT + " WHERE id = " + FROM);
                execute(c, "UPDATE bank.accounts SET balance = balance + " + AMOUNT + " WHERE id = " + TO);
                if (step == CommitStep.DURING_COMMIT) {
                    // Answered at the durable decision; the daemon dies while the branches commit.
                    execute(c, "COMMIT");
                } else {
                    assertThatThrownBy(() -> execute(c, "COMMIT")).as("the daemon died during COMMIT")
                            .isInstanceOf(SQLException.class);
                }
            }
            assertThat(up.waitFor(30, TimeUnit.SECONDS)).as("the daemon halted").isTrue();
            assertThat(up.exitValue()).as(Files.readString(log)).isEqualTo(137);
            assertThat(Files.readString(log)).contains("test hook: halting at " + step);
        } finally {
            up.destroyForcibly();
        }
        assertThat(home.serverPids()).as("the shards outlive the daemon").hasSize(SHARDS);

        RunningDaemon next = home.start();
        try {
            boolean applied = step == CommitStep.AFTER_DECISION || step == CommitStep.DURING_COMMIT;
            Map<Integer, Long> after = Bank.balancesOnShards(next, FROM, TO);
            assertThat(after.get(FROM) + after.get(TO)).as("total").isEqualTo(before.get(FROM) + before.get(TO));
            assertThat(after).as("the transfer is %s after a halt at %s", applied ? "applied" : "absent", step)
                    .containsEntry(FROM, before.get(FROM) - (applied ? AMOUNT : 0))
                    .containsEntry(TO, before.get(TO) + (applied ? AMOUNT : 0));
            for (int shard = 0; shard < SHARDS; shard++) {
                assertThat(Bank.preparedBranches(next, shard)).as("prepared branches on shard %d", shard).isEmpty();
            }
            Bank.awaitNothingOpen(next, SHARDS, Duration.ofSeconds(10));
            try (Connection c = next.connectProxy("bank", "")) {
                assertThat(balances(c)).as("what clients read").isEqualTo(after);
            }
        } finally {
            next.closeLeavingInstancesRunning();
        }
    }

    private Map<Integer, Long> balances(Connection c) throws SQLException {
        Map<Integer, Long> out = new java.util.LinkedHashMap<>();
        for (String row : Bank.rows(c, "SELECT id, balance FROM bank.accounts WHERE id IN (" + FROM + ", " + TO
                + ") ORDER BY id")) {
            String[] f = row.split(" ");
            out.put(Integer.parseInt(f[0]), Long.parseLong(f[1]));
        }
        return out;
    }

}
