package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.EtcdCluster;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.coordination.CoordinationReport;
import io.cleave.manager.coordination.PairState;
import io.cleave.manager.move.MoveHooks;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyIT.single;
import static io.cleave.e2e.standby.StandbyLayoutIT.SHAPE;
import static io.cleave.e2e.standby.StandbyLayoutIT.awaitPhase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The primary host lost while a move of keys is inside its cutover, the standby promoted. Bank transfers run
 * through the primary's proxy, each client recording what it saw acknowledged, half of them on the moving
 * branches; the move waits at one point of its cutover and every process of the primary host (its daemon and
 * each shard) is SIGKILLed there:
 * <ul>
 *   <li>{@link Point#HELD_BEFORE_FLIP}: the statements on the moving keys held, every change applied to the
 *       target, the map not flipped: the moving keys stay on the source, the target's copy is deleted;</li>
 *   <li>{@link Point#HELD_AFTER_FLIP}: the flip's version published (so acknowledged by the standby), the held
 *       statements not yet released: the keys are on the target, the source's old rows are deleted;</li>
 *   <li>{@link Point#CLEANING_UP}: the clean-up deleted its first chunk of the source's old rows: the rest go.</li>
 * </ul>
 * After {@code cleave promote} on the standby: every account read by its key through the promoted proxy holds
 * what the acknowledged transfers left, the total is unchanged, a read across the shards agrees, no XA branch is
 * prepared, each shard of the promoted home is a writable primary with no replica running, each shard holds
 * exactly the rows its installed map gives it, and a new move there runs to its end. The default run checks the
 * first point; {@code -Dstandby.moveFail.all=true} all three, and the second again with the standby taking over by
 * itself through etcd.
 */
class FailoverDuringMoveIT {

    private static final boolean ALL = Boolean.getBoolean("standby.moveFail.all");
    /** Branches 150-170 move from shard 1 to shard 0; transfers favour them. */
    private static final String MOVING = "150-170";
    private static final int SOURCE = 1;
    private static final int TARGET = 0;
    private static final int CHUNK_ROWS = 50;

    /** Where in the move's cutover the primary host dies. */
    enum Point {
        HELD_BEFORE_FLIP(MoveHooks.Point.BEFORE_FLIP, SOURCE),
        HELD_AFTER_FLIP(MoveHooks.Point.AFTER_FLIP, TARGET),
        CLEANING_UP(MoveHooks.Point.CLEANED_CHUNK, TARGET);

        final MoveHooks.Point hook;
        /** Where the moving keys are on the promoted home. */
        final int owner;

        Point(MoveHooks.Point hook, int owner) {
            this.hook = hook;
            this.owner = owner;
        }
    }

    @ParameterizedTest
    @EnumSource(Point.class)
    void thePromotedStandbyRoutesEveryKeyWhereItsMapSaysAndLosesNothingAcknowledged(Point point) throws Exception {
        assumeTrue(ALL || point == Point.HELD_BEFORE_FLIP, "-Dstandby.moveFail.all=true runs the other points");
        failOver(point, null);
    }

    /**
     * The same with the pair coordinated through etcd (three members on loopback, lease 3 s): nobody runs {@code
     * cleave promote}; the standby takes over by itself once the dead primary's lease lapses.
     */
    @Test
    void theStandbyTakingOverByItselfSettlesTheMoveToo() throws Exception {
        assumeTrue(ALL, "-Dstandby.moveFail.all=true runs the take-over through etcd");
        assumeTrue(EtcdCluster.installed(), "etcd is not installed: scripts/test installs Debian's etcd-server");
        Path dir = Files.createTempDirectory(Path.of("/tmp"), "cleave-failover-move-etcd-", StandbyLayoutIT.SEARCHABLE);
        try (EtcdCluster etcd = EtcdCluster.start(dir)) {
            failOver(Point.HELD_AFTER_FLIP, EtcdCluster.yaml(etcd.urls(), "move-" + ProcessHandle.current().pid(), 3));
        } finally {
            CleaveTestHome.deleteTree(dir);
        }
    }

    /** Kills the primary host at {@code point}; {@code coordination}: the pair's etcd section (null: cleave promote). */
    private static void failOver(Point point, String coordination) throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-failover-move-", StandbyLayoutIT.SEARCHABLE);
        // Never created: the move waits at the point, saying so in the log, until the test kills the host.
        Path gate = work.resolve("never");
        StandbyLayoutIT.Pair pair = null;
        try (CleaveTestHome a = CleaveTestHome.builder().shards(2)
                .extraYaml(StandbyIT.SHARDING + (coordination == null ? "" : coordination)).create()) {
            pair = StandbyLayoutIT.Pair.start(a, work, c -> {
            }, "-Dcleave.test.moveHaltAt=" + point.hook, "-Dcleave.test.moveHaltGate=" + gate,
                    "-Dcleave.move.chunk_rows=" + CHUNK_ROWS);
            BankTransfers load = new BankTransfers(SHAPE, a.proxyPort(), 37 + point.ordinal(), new int[] {150, 170});
            long moveId;
            try {
                load.start(2);
                load.awaitAcknowledged(30);
                pair.seed();
                MoveRecord move = pair.primary.startMove("branch", MOVING, TARGET);
                moveId = move.id;
                awaitLogged(pair.log, "test hook: move " + moveId + " waits at " + point.hook);
                if (point == Point.CLEANING_UP) {
                    try (Connection source = JarPrimary.shard(a, SOURCE)) {
                        long left = Long.parseLong(single(source, "SELECT COUNT(*) FROM bank.accounts WHERE branch"
                                + " BETWEEN 150 AND 170"));
                        assertThat(left).as("the clean-up deleted one chunk of the source's old rows")
                                .isEqualTo(21L * SHAPE.accounts() - CHUNK_ROWS);
                    }
                }
                load.outageBegins();
                killHost(pair, a);
            } finally {
                load.close();
            }
            System.out.println("FailoverDuringMoveIT (" + point + "): " + load.summary());
            assertThat(load.errors()).as("errors clients saw before the loss").isEmpty();
            ShardMap last = pair.primaryMap();
            assertThat(last.ghosts()).as("the primary died with the move under way").hasSize(1);

            if (coordination == null) {
                pair.promote();
            } else {
                awaitTakeOver(pair);
            }
            AdminClient promoted = AdminClient.connect(pair.standby.home()).orElseThrow();
            awaitPhase(promoted, moveId, MovePhase.DONE);
            ShardMap installed = pair.standby.shardMaps().current();
            Topology topology = pair.standby.config().sharding().topology();
            assertThat(installed.ghosts()).as("the interrupted move's rows settled, its ghost dropped").isEmpty();
            for (int b = 150; b <= 170; b++) {
                assertThat(installed.shardOf("branch", ShardKey.of(b), topology.keyspaces().get("branch").function()))
                        .as("branch %d on the promoted home", b).isEqualTo(point.owner);
            }
            StandbyLayoutIT.checkLedger(pair, load);
            checkPrimaryShards(pair);
            StandbyLayoutIT.checkShards(pair.standby, installed, "accounts", SHAPE.accounts());

            // Moves are taken again, the moved keys included.
            MoveRecord next = promoted.startMove("branch", "160-165", point.owner == TARGET ? SOURCE : TARGET);
            assertThat(next.id).isGreaterThan(moveId);
            awaitPhase(promoted, next.id, MovePhase.DONE);
            checkLedgerAndPlacement(pair, load);
        } finally {
            if (pair != null) {
                pair.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /** Waits until the standby took over by itself: the primary of epoch 2, holding the lease, its proxy serving. */
    private static void awaitTakeOver(StandbyLayoutIT.Pair pair) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        CoordinationReport r = pair.standby.statusReport().coordination();
        while (r.state() != PairState.PRIMARY) {
            assertThat(System.nanoTime()).as("the standby took over within a minute: %s", r).isLessThan(deadline);
            Thread.sleep(100);
            r = pair.standby.statusReport().coordination();
        }
        assertThat(r.epoch()).isEqualTo(2);
        assertThat(r.holdsLease()).isTrue();
        while (true) {
            try (Connection c = pair.standbyProxy()) {
                return;
            } catch (java.sql.SQLException e) {
                assertThat(System.nanoTime()).as("the standby's proxy serves within a minute: %s", e.getMessage())
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    /** SIGKILL of every process of the primary host (its daemon and each shard) at once, then waits for them. */
    static void killHost(StandbyLayoutIT.Pair pair, CleaveTestHome a) {
        List<ProcessHandle> host = new ArrayList<>();
        host.add(pair.up.toHandle());
        a.serverPids().values().forEach(pid -> ProcessHandle.of(pid).ifPresent(host::add));
        assertThat(host).as("the daemon and every shard").hasSize(1 + a.serverPids().size());
        host.forEach(ProcessHandle::destroyForcibly);
        host.forEach(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).join());
    }

    /** The promoted home's ledger ({@link StandbyLayoutIT#checkLedger}) and its accounts where its current map puts them. */
    static void checkLedgerAndPlacement(StandbyLayoutIT.Pair pair, BankTransfers load) throws Exception {
        StandbyLayoutIT.checkLedger(pair, load);
        StandbyLayoutIT.checkShards(pair.standby, pair.standby.shardMaps().current(), "accounts", SHAPE.accounts());
    }

    /** Each shard of the promoted home: writable, no replica configured, no XA branch prepared. */
    static void checkPrimaryShards(StandbyLayoutIT.Pair pair) throws Exception {
        for (int s = 0; s < pair.standby.shardEndpoints().size(); s++) {
            try (Connection c = shard(pair.standby, s)) {
                assertThat(single(c, "SELECT @@read_only")).as("shard %d writable", s).isEqualTo("0");
                try (var st = c.createStatement(); var rs = st.executeQuery("SHOW SLAVE STATUS")) {
                    assertThat(rs.next()).as("shard %d replicates from nobody", s).isFalse();
                }
                try (var st = c.createStatement(); var rs = st.executeQuery("XA RECOVER")) {
                    assertThat(rs.next()).as("shard %d: no XA branch prepared", s).isFalse();
                }
            }
        }
    }

    static void awaitLogged(Path log, String line) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
        while (!Files.readString(log).contains(line)) {
            assertThat(System.nanoTime()).as("'%s' logged within 90 s", line).isLessThan(deadline);
            Thread.sleep(50);
        }
    }
}
