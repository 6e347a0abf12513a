package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.CleaveJar;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.scale.ScaleStatus;
import io.cleave.manager.standby.StandbyReport;
import io.cleave.router.shardmap.ShardMap;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.standby.StandbyIT.await;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyIT.single;
import static io.cleave.e2e.standby.StandbyLayoutIT.SHAPE;
import static io.cleave.e2e.standby.StandbyLayoutIT.byKey;
import static io.cleave.e2e.standby.StandbyLayoutIT.checkShards;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A scale with a standby attached, one pair for both cases, bank transfers running through the primary's
 * proxy with every acknowledged transfer recorded. First the standby's daemon is down (its replicas still
 * run): the scale is refused and nothing changes. Then, the daemon back, the primary scales from 2 to 3
 * shards: the standby makes a replica of the new shard before anything is written there, the new shard waits
 * for it like the others, and the scale's moves spread the branches. The standby's daemon restarts (it starts
 * its replica of the new shard again), the primary host is lost (its daemon and every shard killed), and the
 * standby is promoted: it serves all three shards, every account read by its key matches the acknowledged
 * transfers, the total is unchanged, each shard holds exactly what the map gives it, and nothing is prepared.
 * Before this, a scale was refused while a standby was attached.
 */
class StandbyScaleIT {

    private static final java.nio.file.attribute.FileAttribute<?> SEARCHABLE =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));

    /**
     * The primary's window to hear from the standby's daemon before it refuses a scale up (10 s by default): long
     * enough for the daemon's asking every 2 s, short enough not to spend 10 s proving the refusal.
     */
    private static final long HEARD_WITHIN_MILLIS = 4_000;

    @Test
    void aScaleWaitsForTheStandbysDaemonAndAPromotedStandbyServesEveryShardItAdded() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-standby-scale-", SEARCHABLE);
        StandbyLayoutIT.Pair pair = null;
        try (CleaveTestHome a = CleaveTestHome.builder().shards(2).portRange(3).extraYaml(StandbyIT.SHARDING).create()) {
            // The shard-table after the scale (move 3) halts the primary's daemon after its flip, once the gate exists.
            Path gate = work.resolve("halt-gate");
            pair = StandbyLayoutIT.Pair.start(a, work, c -> {
                StandbyIT.run(c, "CREATE TABLE bank.notes (branch INT NOT NULL PRIMARY KEY, note VARCHAR(64) NOT NULL)");
                StringBuilder notes = new StringBuilder();
                for (int b = 1; b <= SHAPE.branches(); b++) {
                    notes.append(b == 1 ? "" : ",").append('(').append(b).append(",'note ").append(b).append("')");
                }
                StandbyIT.run(c, "INSERT INTO bank.notes VALUES " + notes);
            }, "-Dcleave.test.moveHaltAt=CLEANING_UP", "-Dcleave.test.moveHaltGate=" + gate, "-Dcleave.test.moveHaltMove=3",
                    "-Dcleave.test.standbyHeardWithinMillis=" + HEARD_WITHIN_MILLIS);
            AdminClient primary = pair.primary;
            BankTransfers load = new BankTransfers(SHAPE, a.proxyPort(), 37, new int[] {150, 170});
            ShardMap last;
            try {
                load.start(2);
                load.awaitAcknowledged(30);
                pair.seed();

                // The standby's daemon is down (its replicas keep acknowledging): nobody would make the new
                // shard's replica, so the scale is refused once the primary has not heard from it for the window
                // (10 s, HEARD_WITHIN_MILLIS here). The daemon may close before its first asking (1 s after its
                // start): the primary is asked here as that daemon asks, so the refusal is the window's.
                pair.standby.closeLeavingInstancesRunning();
                primary.standbyShards();
                Thread.sleep(HEARD_WITHIN_MILLIS + 1_000);
                assertThatThrownBy(() -> primary.startScale(3)).as("scale while the standby's daemon is down")
                        .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> assertThat(e.status()).isEqualTo(409))
                        .hasMessageContaining("its daemon has not asked for this home's shards for ");
                assertThat(pair.primaryMap().shardCount()).as("nothing changed").isEqualTo(2);
                assertThat(a.home().etc().resolve("shard-2.cnf")).as("no shard started").doesNotExist();
                assertThatThrownBy(primary::scaleStatus).as("no scale ran")
                        .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> assertThat(e.status()).isEqualTo(404));
                load.awaitAcknowledged(60);

                pair.standby = StandbyIT.startAndAwaitSemiSync(pair.seeded, pair.url, pair.token, 2);
                awaitScaleAccepted(primary, 3);
                ScaleStatus done = awaitScaleDone(primary);
                System.out.println("StandbyScaleIT: scale 2 -> 3 with a standby: " + done.moves().size() + " moves, "
                        + done.started() + " .. " + done.ended());
                load.awaitAcknowledged(50);

                // The new shard waits for the standby like the others; the standby replicates it.
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!everyShardWaitsForTheStandby(primary.standby(), 3)) {
                    assertThat(System.nanoTime()).as("the primary's 3 shards wait for the standby: %s", primary.standby())
                            .isLessThan(deadline);
                    Thread.sleep(100);
                }
                assertThat(primary.standby().shards()).allSatisfy(s -> assertThat(s.asyncCommits())
                        .as("commits on shard %d answered without the standby", s.shard()).isZero());

                // The standby's daemon starts again: it starts its replica of the new shard again too.
                pair.standby.closeLeavingInstancesRunning();
                pair.standby = StandbyIT.startAndAwaitSemiSync(pair.seeded, pair.url, pair.token, 3);
                // A table is sharded over the three shards; the primary host is lost after its flip, before its
                // old home's rows that left are deleted (its journal stays there).
                MoveRecord table = primary.shardTable("bank.notes", Map.of("keyspace", "branch", "column", "branch"));
                assertThat(table.id).as("the move the primary halts at (the scale's were 1 and 2)").isEqualTo(3);
                StandbyLayoutIT.awaitPhase(primary, table.id, MovePhase.CLEANING_UP);
                last = pair.primaryMap();
                long published = last.version();
                await(pair.standby, r -> r.maps().replicated() == published, "the standby holds the version " + published);
                load.awaitAcknowledged(50);

                load.outageBegins();
                Files.createFile(gate);
                CleaveJar.awaitHalt(pair.up, pair.log, "halting move 3 at CLEANING_UP");
                pair.killPrimaryShards(3);
            } finally {
                load.close();
            }
            System.out.println("StandbyScaleIT: " + load.summary());
            assertThat(load.errors()).as("errors clients saw before the loss").isEmpty();
            assertThat(last.shardCount()).isEqualTo(3);
            assertThat(last.ghosts()).as("only the shard-table's: the scale's moves were cleaned up")
                    .allSatisfy(g -> assertThat(g.moveId()).isEqualTo(3)).isNotEmpty();
            assertThat(last.movingTables()).as("the shard-table not ended").containsValue(3L);

            String out = pair.promote();
            assertThat(out).contains("shard map: version " + pair.primaryMap().version());
            // The cut-short shard-table is settled by its rules: its old home's rows that left deleted, the move
            // dropped from the map (its table no longer frozen, its ghosts gone).
            ShardMap installed = pair.standby.shardMaps().current();
            assertThat(installed).as("the primary's newest map, the shard-table settled")
                    .isEqualTo(last.withoutGhosts(3).withoutMovingTables(3).asVersion(last.version() + 1));
            assertThat(installed.shardCount()).as("the promoted standby serves every shard").isEqualTo(3);
            StandbyLayoutIT.checkLedger(pair, load);
            checkShards(pair.standby, installed, "accounts", SHAPE.accounts());
            checkShards(pair.standby, installed, "notes", 1);
            try (Connection c = pair.standbyProxy()) {
                StandbyLayoutIT.checkNotes(c);
                StandbyIT.run(c, "ALTER TABLE notes ADD COLUMN seen INT NULL");
            }
            // New moves are taken (before the settlement every move was refused, naming move 3).
            AdminClient promoted = AdminClient.connect(pair.standby.home()).orElseThrow();
            MoveRecord settled = promoted.move(3);
            assertThat(settled.origin).isEqualTo("leftover");
            assertThat(settled.phase).isEqualTo(MovePhase.DONE);
            assertThat(settled.rowsCleaned).as("notes of the branches that left shard 0, deleted there").isPositive();
            MoveRecord next = promoted.startMove("branch", "30-40", 1);
            assertThat(next.id).isGreaterThan(3);
            StandbyLayoutIT.awaitPhase(promoted, next.id, MovePhase.DONE);
            try (Connection c = pair.standbyProxy()) {
                assertThat(load.differences(byKey(c))).as("accounts read by key after a move on the promoted home")
                        .isEmpty();
                // A cross-shard write on the promoted home, one side on the shard the scale added.
                int onNew = -1;
                for (int b = 1; b <= SHAPE.branches() && onNew < 0; b++) {
                    if (pair.standby.shardMaps().current().shardOf("branch", io.cleave.router.keyspace.ShardKey.of(b),
                            pair.standby.config().sharding().topology().keyspaces().get("branch").function()) == 2) {
                        onNew = b;
                    }
                }
                assertThat(onNew).as("a branch the scale moved to shard 2").isPositive();
                c.setAutoCommit(false);
                StandbyIT.run(c, "UPDATE accounts SET balance = balance - 1 WHERE branch = 1 AND id = 1");
                StandbyIT.run(c, "UPDATE accounts SET balance = balance + 1 WHERE branch = " + onNew + " AND id = 1");
                c.commit();
                c.setAutoCommit(true);
                assertThat(byKey(c).values().stream().mapToLong(Long::longValue).sum()).as("the total after it")
                        .isEqualTo(SHAPE.rows() * BankTransfers.INITIAL);
            }
            for (int s = 0; s < 3; s++) {
                try (Connection sc = shard(pair.standby, s); Statement st = sc.createStatement();
                     ResultSet rs = st.executeQuery("XA RECOVER")) {
                    assertThat(rs.next()).as("an XA branch prepared on shard %d of the promoted home", s).isFalse();
                }
                try (Connection sc = shard(pair.standby, s)) {
                    assertThat(single(sc, "SELECT @@GLOBAL.read_only")).as("shard %d writable", s).isEqualTo("0");
                }
            }
        } finally {
            if (pair != null) {
                pair.close();
            }
            // A failure while the standby's daemon was closed leaving its shards running leaves them to this.
            killStandbyShards(work.resolve("standby"));
            CleaveTestHome.deleteTree(work);
        }
    }

    static void killStandbyShards(Path standbyHome) throws Exception {
        Path etc = standbyHome.resolve("etc");
        if (!Files.isDirectory(etc)) {
            return;
        }
        try (java.util.stream.Stream<Path> cnfs = Files.list(etc)) {
            for (Path cnf : cnfs.filter(f -> f.getFileName().toString().matches("shard-\\d+\\.cnf")).toList()) {
                io.cleave.manager.supervisor.ProcessInspector.findServerFor(cnf).ifPresent(p -> {
                    p.destroyForcibly();
                    p.onExit().orTimeout(30, TimeUnit.SECONDS).join();
                });
            }
        }
    }

    private static boolean everyShardWaitsForTheStandby(StandbyReport report, int shards) {
        return report.shards().size() == shards && report.shards().stream()
                .allMatch(s -> "ON".equals(s.semiSync()) && s.semiSyncClients() == 1);
    }

    /** Starts the scale to 3 shards, which the primary takes once the restarted standby's daemon asked for its shards. */
    /** Starts a scale to {@code shards}, again while the standby's daemon (just started) has not asked the primary yet. */
    static void awaitScaleAccepted(AdminClient primary, int shards) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                primary.startScale(shards);
                return;
            } catch (AdminClient.DaemonAnswer e) {
                assertThat(e.getMessage()).contains("its daemon has not asked for this home's shards");
                assertThat(System.nanoTime()).as("the scale is taken once the standby's daemon runs").isLessThan(deadline);
                Thread.sleep(200);
            }
        }
    }

    static ScaleStatus awaitScaleDone(AdminClient primary) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(4);
        ScaleStatus s = primary.scaleStatus();
        while (!s.state().equals("done")) {
            assertThat(s.state()).as("the scale: %s", s.message()).isNotEqualTo("failed");
            assertThat(System.nanoTime()).as("the scale ends within 4 minutes: %s", s).isLessThan(deadline);
            Thread.sleep(200);
            s = primary.scaleStatus();
        }
        return s;
    }
}
