package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.scale.ScaleStatus;
import io.cleave.manager.standby.ShardReplication;
import io.cleave.manager.supervisor.ProcessInspector;
import io.cleave.router.shardmap.ShardMap;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;

import static io.cleave.e2e.standby.StandbyIT.await;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyLayoutIT.SHAPE;
import static io.cleave.e2e.standby.StandbyLayoutIT.checkShards;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A scale down with a standby attached, bank transfers running through the primary's proxy with every
 * acknowledged transfer recorded: the primary goes from 3 to 2 shards, its drain moves the branches of shard 2
 * away, and once the map without shard 2 has replicated to the standby, the standby lets its replica of shard 2
 * go (replication reset, its server stopped) before the primary's shard 2 stops, so no status reports it broken.
 * The standby's state names 2 shards and its daemon, restarted, runs 2. Then the primary host is lost and the
 * standby promoted: it runs exactly 2 shards, every account read by its key matches the acknowledged transfers,
 * the total is unchanged, each shard holds what the map gives it, and nothing is left prepared. Before, a scale
 * down was refused (409) while a standby was attached. With {@code -Dstandby.scaledown.all=true} a second case:
 * the primary is lost after publishing the map without shard 2 and before the standby's daemon let go of its
 * replica (that daemon was down through the scale); the promotion stops the shard the map leaves out.
 */
class StandbyScaleDownIT {

    private static final java.nio.file.attribute.FileAttribute<?> SEARCHABLE =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));

    /** One case on a fresh pair: the primary's 3 shards, its seeded standby, transfers running through its proxy. */
    private interface Case {
        void run(StandbyLayoutIT.Pair pair, BankTransfers load, Path replica2) throws Exception;
    }

    private static void onAPair(long seed, Case c) throws Exception {
        onAPair(seed, work -> new String[0], c);
    }

    /** {@code jvmOptions}: the primary daemon's, given the pair's work directory. */
    private static void onAPair(long seed, java.util.function.Function<Path, String[]> jvmOptions, Case c) throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-standby-scale-down-", SEARCHABLE);
        StandbyLayoutIT.Pair pair = null;
        try (CleaveTestHome a = CleaveTestHome.builder().shards(3).extraYaml(StandbyIT.sharding(3)).create()) {
            pair = StandbyLayoutIT.Pair.start(a, work, x -> { }, jvmOptions.apply(work));
            // Half the transfers start in branches of shard 2 (134-200), the ones the scale down moves.
            BankTransfers load = new BankTransfers(StandbyIT.shape(3), a.proxyPort(), seed, new int[] {140, 190});
            try {
                load.start(2);
                load.awaitAcknowledged(30);
                pair.seed();
                c.run(pair, load, work.resolve("standby").resolve("etc").resolve("shard-2.cnf"));
            } finally {
                load.close();
            }
        } finally {
            if (pair != null) {
                pair.close();
            }
            StandbyScaleIT.killStandbyShards(work.resolve("standby"));
            CleaveTestHome.deleteTree(work);
        }
    }

    /**
     * The primary host lost (its daemon and 2 shards killed), once the standby's daemon, when {@code standbyUp}, reads
     * the primary's newest map on its shards; that map.
     */
    private static ShardMap losePrimary(StandbyLayoutIT.Pair pair, BankTransfers load, boolean standbyUp) throws Exception {
        load.awaitAcknowledged(50);
        ShardMap last = pair.primaryMap();
        if (standbyUp) {
            long published = last.version();
            await(pair.standby, r -> r.maps().replicated() == published, "the standby holds the version " + published);
        }
        load.outageBegins();
        pair.up.destroyForcibly().waitFor();
        pair.killPrimaryShards(2);
        load.close();
        System.out.println("StandbyScaleDownIT: " + load.summary());
        assertThat(load.errors()).as("errors clients saw before the loss").isEmpty();
        assertThat(last.shardCount()).isEqualTo(2);
        return last;
    }

    /** After the promotion: exactly 2 shards, the map {@code last}, the ledger, each shard's rows, nothing prepared. */
    private static void checkPromoted(StandbyLayoutIT.Pair pair, BankTransfers load, ShardMap last, Path replica2)
            throws Exception {
        assertThat(pair.standby.shardMaps().current()).as("the primary's newest map").isEqualTo(last);
        assertThat(pair.standby.shardEndpoints()).as("the promoted standby runs exactly 2 shards")
                .extracting(ShardEndpoint::index).containsExactly(0, 1);
        assertThat(ProcessInspector.findServerFor(replica2)).as("no server of shard 2 on the promoted home").isEmpty();
        StandbyLayoutIT.checkLedger(pair, load);
        checkShards(pair.standby, last, "accounts", SHAPE.accounts());
        for (int s = 0; s < 2; s++) {
            try (Connection sc = shard(pair.standby, s); Statement st = sc.createStatement();
                 ResultSet rs = st.executeQuery("XA RECOVER")) {
                assertThat(rs.next()).as("an XA branch prepared on shard %d of the promoted home", s).isFalse();
            }
        }
    }

    @Test
    void aScaleDownLetsTheStandbysReplicaGoAndAPromotedStandbyServesTheShardsLeft() throws Exception {
        onAPair(43, (pair, load, replica2) -> {
            AdminClient primary = pair.primary;
            assertThat(ProcessInspector.findServerFor(replica2)).as("the standby's replica of shard 2 runs").isPresent();
            // The standby's daemon may not have asked for the primary's shards yet (its first ask, on a busy host).
            StandbyScaleIT.awaitScaleAccepted(primary, 2);
            ScaleStatus done = StandbyScaleIT.awaitScaleDone(primary);
            System.out.println("StandbyScaleDownIT: scale 3 -> 2 with a standby: " + done.moves().size() + " moves, "
                    + done.started() + " .. " + done.ended());
            load.awaitAcknowledged(50);

            // The standby let its replica of shard 2 go, before the primary's shard 2 stopped.
            await(pair.standby, r -> r.shards().size() == 2 && r.shards().stream().allMatch(ShardReplication::replicating),
                    "the standby reports its 2 replicas, both replicating");
            assertThat(pair.standby.shardEndpoints()).extracting(ShardEndpoint::index).containsExactly(0, 1);
            assertThat(ProcessInspector.findServerFor(replica2)).as("the standby's replica of shard 2 stopped").isEmpty();
            assertThat(new ShardMapStore(pair.standby.home().shardMapFile()).read().shardCount())
                    .as("the standby's state names the new count").isEqualTo(2);
            assertThat(Files.readString(pair.log)).as("the primary's shard 2 waited for the standby's replica to go")
                    .contains("shard 2: the standby let its replica go");
            String metrics = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                    + pair.standby.adminPort() + "/metrics")).build(), HttpResponse.BodyHandlers.ofString()).body();
            assertThat(metrics.lines().filter(l -> l.startsWith("cleave_standby_replica_running{")))
                    .as("the standby's replicas in its metrics").hasSize(2).allMatch(l -> l.endsWith(" 1.0"));
            assertThat(metrics.lines().filter(l -> l.startsWith("cleave_standby_") && l.contains("shard=\"2\"")))
                    .as("the standby's metrics of shard 2").isEmpty();
            assertThat(primary.standby().shards()).as("the primary's shards, each waiting for the standby")
                    .extracting(ShardReplication::shard).containsExactly(0, 1);

            // The standby's daemon starts again: with 2 shards, shard 2's replica left stopped.
            pair.standby.closeLeavingInstancesRunning();
            pair.standby = StandbyIT.startAndAwaitSemiSync(pair.seeded, pair.url, pair.token, 2);
            assertThat(pair.standby.shardEndpoints()).extracting(ShardEndpoint::index).containsExactly(0, 1);
            assertThat(ProcessInspector.findServerFor(replica2)).as("shard 2 not started again").isEmpty();

            ShardMap last = losePrimary(pair, load, true);
            assertThat(pair.promote()).contains("shard map: version " + last.version());
            checkPromoted(pair, load, last, replica2);
        });
    }

    /**
     * The primary host is lost in the middle of a scale down's drain: its daemon halts inside the drain's moves, every
     * change caught up and the moving keys' statements held, before the flip; its shards are killed. The promoted
     * standby still runs 3 shards (the map without shard 2 was never published), serves every acknowledged transfer
     * from shard 2, where the keys still live, holds each branch's rows on exactly the shard its map gives, and
     * settles the interrupted moves (their copies deleted); a scale down run again there moves the keys and ends with
     * 2 shards and the same ledger.
     */
    @Test
    void aPromotionDuringTheDrainServesThreeShardsAndTheScaleDownCanBeRunAgain() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("standby.scaledown.all"), "runs with -Dstandby.scaledown.all=true");
        onAPair(53, work -> new String[] {"-Dcleave.test.moveHaltAt=BEFORE_FLIP",
                "-Dcleave.test.moveHaltGate=" + work.resolve("halt-gate")}, (pair, load, replica2) -> {
            StandbyScaleIT.awaitScaleAccepted(pair.primary, 2);
            FailoverDuringMoveIT.awaitLogged(pair.log, " waits at BEFORE_FLIP");
            ShardMap held = pair.primaryMap();
            assertThat(held.ghosts()).as("the drain's copies").isNotEmpty();
            long published = held.version();
            await(pair.standby, r -> r.maps().replicated() == published, "the standby holds the version " + published);
            load.outageBegins();
            Files.createFile(pair.log.resolveSibling("halt-gate"));
            io.cleave.e2e.support.CleaveJar.awaitHalt(pair.up, pair.log, "at BEFORE_FLIP");
            pair.killPrimaryShards(3);
            load.close();
            System.out.println("StandbyScaleDownIT (drain): " + load.summary());
            assertThat(load.errors()).as("errors clients saw before the loss").isEmpty();

            assertThat(pair.promote()).contains("shard map: version " + published);
            assertThat(pair.standby.shardEndpoints()).as("the promoted standby runs the 3 shards its map names")
                    .extracting(ShardEndpoint::index).containsExactly(0, 1, 2);
            StandbyLayoutIT.checkLedger(pair, load);
            AdminClient promoted = AdminClient.connect(pair.standby.home()).orElseThrow();
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
            while (!pair.standby.shardMaps().current().ghosts().isEmpty()) {
                assertThat(System.nanoTime()).as("the interrupted move settled within 60 s (its ghost dropped)")
                        .isLessThan(deadline);
                Thread.sleep(100);
            }
            ShardMap settled = pair.standby.shardMaps().current();
            checkShards(pair.standby, settled, "accounts", SHAPE.accounts());

            promoted.startScale(2);
            ScaleStatus again = StandbyScaleIT.awaitScaleDone(promoted);
            System.out.println("StandbyScaleDownIT (drain): the scale down again on the promoted home: "
                    + again.moves().size() + " moves");
            assertThat(again.moves()).as("the keys still on shard 2 move").isNotEmpty();
            assertThat(pair.standby.shardEndpoints()).extracting(ShardEndpoint::index).containsExactly(0, 1);
            StandbyLayoutIT.checkLedger(pair, load);
            checkShards(pair.standby, pair.standby.shardMaps().current(), "accounts", SHAPE.accounts());
            for (int s = 0; s < 2; s++) {
                try (Connection sc = shard(pair.standby, s); Statement st = sc.createStatement();
                     ResultSet rs = st.executeQuery("XA RECOVER")) {
                    assertThat(rs.next()).as("an XA branch prepared on shard %d of the promoted home", s).isFalse();
                }
            }
        });
    }

    /**
     * The standby's daemon is down (its replicas up) from the scale's start: the primary's shard 2 waits 10 s for it
     * to let go, then stops; the primary is lost; the standby's daemon starts again (with its replica of shard 2, the
     * primary's shards gone) and is promoted: the replicated map names 2 shards, so the promotion stops shard 2 and
     * serves the 2 the map names, every acknowledged transfer there.
     */
    @Test
    void aPromotionBeforeTheStandbyLetGoStopsTheShardTheReplicatedMapLeavesOut() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("standby.scaledown.all"), "runs with -Dstandby.scaledown.all=true");
        onAPair(47, (pair, load, replica2) -> {
            AdminClient primary = pair.primary;
            // The standby's daemon goes; the primary is asked as it asks, so the scale is taken.
            pair.standby.closeLeavingInstancesRunning();
            primary.standbyShards();
            primary.startScale(2);
            StandbyScaleIT.awaitScaleDone(primary);
            assertThat(Files.readString(pair.log)).contains("shard 2: the standby has not said it let its replica go");
            assertThat(ProcessInspector.findServerFor(replica2)).as("the standby's replica of shard 2 runs").isPresent();
            ShardMap last = losePrimary(pair, load, false);

            pair.standby = new io.cleave.manager.daemon.Daemon(io.cleave.manager.daemon.DaemonOptions.standard(
                    new io.cleave.manager.home.CleaveHome(pair.seeded.home()), pair.seeded.config(), System.getenv())
                    .withProxy(io.cleave.manager.daemon.CleaveProxyService.FACTORY));
            pair.standby.start();
            assertThat(pair.standby.shardEndpoints()).as("the standby's daemon starts its 3 replicas").hasSize(3);
            long published = last.version();
            await(pair.standby, r -> r.maps().replicated() == published, "the standby holds the version " + published);
            assertThat(pair.promote()).contains("shard map: version " + published);
            checkPromoted(pair, load, last, replica2);
        });
    }
}
