package io.cleave.e2e.moves;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.Leftovers;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.shardmap.ShardMap;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.moves.MoveChecks.proxyCount;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bank transfers through the proxy while key ranges move, as a user runs them: four shards, a range
 * keyspace {@code branch}, six writers with autocommit off (most transfers within a branch, three in
 * ten between branches on different shards, point reads mixed in), each recording every transfer it
 * was told committed. {@code cleave move branch 1-50 --to 1 --wait} runs under them; then a move of
 * 51-100 to shard 2 whose daemon is killed with SIGKILL while the move catches up, verifies or cuts
 * over, and started again. After each move every account must hold exactly what the acknowledged
 * transfers say (transfers whose COMMIT was cut off by the kill count as either applied or not, but
 * whole), every row must be on exactly the shard the map names, no XA branch may be left prepared and
 * no transaction open, and no writer may have seen an error outside the kill.
 *
 * <p>By default 400 branches of 25 accounts copied in chunks of 100 (so the move's phases take a few
 * seconds); {@code -Dmoves.long=true} runs 400 x 250 accounts with the move's own defaults.
 * {@code -Dmoves.seed=N} replays a run's choices (the seed is printed).
 */
class MovesUnderTransfersIT {

    private static final boolean LONG = Boolean.getBoolean("moves.long");
    private static final BankTransfers.Shape SHAPE = new BankTransfers.Shape(400, LONG ? 250 : 25, 100);
    private static final String SHARDING = """
            sharding:
              keyspaces:
                - name: branch
                  function: range
                  ranges:
                    - { from: 1, to: 100, shard: 0 }
                    - { from: 101, to: 200, shard: 1 }
                    - { from: 201, to: 300, shard: 2 }
                    - { from: 301, shard: 3 }
              tables:
                - { name: accounts, keyspace: branch, column: branch }
            """;

    @Test
    void movesUnderCrossShardTransfersKeepEveryAcknowledgedTransfer() throws Exception {
        long seed = Long.getLong("moves.seed", System.nanoTime());
        System.out.println("MovesUnderTransfersIT seed: -Dmoves.seed=" + seed);
        Random random = new Random(seed);
        try (CleaveTestHome home = CleaveTestHome.builder().shards(4).extraYaml(SHARDING).create()) {
            RunningDaemon first = home.start();
            try (Connection c = first.connectProxy("", "")) {
                BankTransfers.create(c, SHAPE);
            } finally {
                first.closeLeavingInstancesRunning();
            }
            Path log = home.root().resolve("daemon.out");
            Process up = LONG ? CleaveJar.up(home, log) : CleaveJar.up(home, log, "-Dcleave.move.chunk_rows=100");
            RunningDaemon next = null;
            try (BankTransfers load = new BankTransfers(SHAPE, home.proxyPort(), seed, new int[] {1, 100})) {
                CleaveJar.awaitProxy(home, up, log, "bank").close();
                load.start(6);
                load.awaitAcknowledged(300);

                CleaveJar.Result move = CleaveJar.run(home, "move", "branch", "1-50", "--to", "1", "--wait");
                assertThat(move.code()).as(move.out()).isZero();
                assertThat(move.out()).contains("done");
                AdminClient admin = AdminClient.connect(home.home()).orElseThrow();
                describe(admin.moves().get(0));
                load.awaitAcknowledged(200);
                load.pause();
                try (Connection c = CleaveJar.awaitProxy(home, up, log, "bank")) {
                    assertLedgerHolds(load, BankTransfers.balances(c, "SELECT branch, id, balance FROM accounts"),
                            "through the proxy after the move of 1-50");
                }
                load.resume();

                MoveRecord killed = admin.startMove("branch", "51-100", 2);
                MovePhase[] killAt = {MovePhase.CATCHING_UP, MovePhase.VERIFYING, MovePhase.CUTTING_OVER};
                awaitReached(admin, killed.id, killAt[random.nextInt(killAt.length)], up, log);
                Thread.sleep(random.nextInt(100));
                String phase = admin.move(killed.id).phase.toString();
                load.outageBegins();
                up.destroyForcibly();
                assertThat(up.waitFor(30, TimeUnit.SECONDS)).isTrue();
                System.out.println("MovesUnderTransfersIT: daemon killed with the move of 51-100 at " + phase);

                next = home.start();
                load.outageOver();
                MoveRecord done = MoveChecks.awaitEnd(next.daemon().moves(), killed.id, Duration.ofMinutes(3));
                assertThat(done.phase).as(done.message).isEqualTo(MovePhase.DONE);
                describe(done);
                load.awaitAcknowledged(300);
                load.close();
                System.out.println("MovesUnderTransfersIT: " + load.summary());
                assertThat(load.errors()).as("errors clients saw").isEmpty();

                Leftovers.awaitNothingOpen(next, Duration.ofSeconds(30));
                try (Connection c = next.connectProxy("bank", "")) {
                    assertLedgerHolds(load, BankTransfers.balances(c, "SELECT branch, id, balance FROM accounts"),
                            "through the proxy after both moves");
                    assertThat(proxyCount(c, "SELECT COUNT(*) FROM accounts")).isEqualTo(SHAPE.rows());
                    assertThat(proxyCount(c, "SELECT SUM(balance) FROM accounts")).isEqualTo(SHAPE.rows()
                            * BankTransfers.INITIAL);
                }
                assertLedgerHolds(load, onTheirShards(next), "on the shards");
            } finally {
                up.destroyForcibly();
                if (next != null) {
                    next.close();
                }
            }
        }
    }

    private static void describe(MoveRecord r) {
        System.out.printf("MovesUnderTransfersIT: move %d of %s: %s, %d rows copied, %d applied, %d chunks verified, %d"
                + " repaired, %d cutover attempts, clients paused %.1f ms%n", r.id, r.keys, r.phase, r.rowsCopied,
                r.rowsApplied, r.chunksVerified, r.chunksRepaired, r.cutoverAttempts, r.pauseMillis);
    }

    private static void assertLedgerHolds(BankTransfers load, Map<Long, Long> balances, String where) {
        Map<Long, String> wrong = load.differences(balances);
        assertThat(wrong).as("accounts whose balance %s is not what the acknowledged transfers say (%s)", where,
                load.summary()).isEmpty();
    }

    /** Every account read on the shards themselves; each must be on exactly the shard the map names. */
    private static Map<Long, Long> onTheirShards(RunningDaemon daemon) throws SQLException {
        ShardMap map = daemon.daemon().shardMaps().current();
        ShardFunction function = daemon.daemon().config().sharding().topology().keyspace("branch").function();
        Map<Long, Long> all = new HashMap<>();
        for (int shard = 0; shard < SHAPE.shards(); shard++) {
            try (Connection c = daemon.connect(shard)) {
                Map<Long, Long> here = BankTransfers.balances(c, "SELECT branch, id, balance FROM " + BankTransfers.TABLE);
                for (Map.Entry<Long, Long> e : here.entrySet()) {
                    int branch = (int) (e.getKey() / 1_000_000);
                    assertThat(map.shardOf("branch", ShardKey.of(branch), function))
                            .as("shard of branch %d, whose account %d is on shard %d", branch, e.getKey() % 1_000_000, shard)
                            .isEqualTo(shard);
                    assertThat(all.put(e.getKey(), e.getValue())).as("account %d on two shards", e.getKey()).isNull();
                }
            }
        }
        return all;
    }

    /** Waits until the move has reached {@code phase} (or gone past it). */
    private static void awaitReached(AdminClient admin, long id, MovePhase phase, Process up, Path log) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        while (true) {
            assertThat(up.isAlive()).as("daemon running:\n%s", Files.readString(log)).isTrue();
            MoveRecord r = admin.move(id);
            if (r.phase.ordinal() >= phase.ordinal()) {
                return;
            }
            assertThat(System.nanoTime()).as("move %d still %s", id, r.phase).isLessThan(deadline);
            Thread.sleep(20);
        }
    }
}
