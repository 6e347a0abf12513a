package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.config.BackupConfig;
import io.cleave.manager.daemon.CleaveProxyService;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.daemon.DaemonOptions;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.DaemonInfo;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.standby.ShardReplication;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.standby.StandbyReport;
import io.cleave.manager.standby.StandbySeed;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.Topology;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.standby.StandbyIT.await;
import static io.cleave.e2e.standby.StandbyIT.run;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyIT.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Moves and shard-table with a standby attached, then the primary host lost and the standby promoted:
 * the standby must route by the primary's newest shard map, which reached it with the rows. While bank
 * transfers run through the primary's proxy: a key range moves to the other shard and is cleaned up, a
 * table is sharded (its rows leave the default shard), and a second key range moves and its primary dies
 * right after the cutover (clients already wrote the moved keys on their new shard; the old rows are not
 * cleaned up). Through the promoted home's proxy every account read by its key holds what the acknowledged
 * transfers left, the bank's total is unchanged, every note is found, and each shard holds exactly the
 * rows the installed map gives it (plus the unfinished move's old rows, which the map names as ghosts).
 * A standby routing by the seed's map would read moved keys on the shard they left.
 */
class StandbyLayoutIT {

    private static final java.nio.file.attribute.FileAttribute<?> SEARCHABLE =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
    private static final BankTransfers.Shape SHAPE = new BankTransfers.Shape(200, 10, 100);
    /** Branches moved to shard 1 and cleaned up; branches moved to shard 0 when the primary dies. */
    private static final String DONE_MOVE = "1-20";
    private static final String CUT_MOVE = "150-170";

    @Test
    void aPromotedStandbyRoutesByThePrimarysNewestMapAfterMovesAndShardTable() throws Exception {
        assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-standby-layout-", SEARCHABLE);
        Path gate = work.resolve("halt-gate");
        Daemon standby = null;
        Process up = null;
        try (CleaveTestHome a = CleaveTestHome.builder().shards(2).extraYaml(StandbyIT.SHARDING).create()) {
            Path log = work.resolve("primary.log");
            // The third move (the second key range) halts the primary's daemon after its cutover, once the gate exists.
            up = CleaveJar.up(a, log, "-Dcleave.test.moveHaltAt=CLEANING_UP", "-Dcleave.test.moveHaltGate=" + gate,
                    "-Dcleave.test.moveHaltMove=3");
            try (Connection c = CleaveJar.awaitProxy(a, up, log, "")) {
                BankTransfers.create(c, SHAPE);
                run(c, "CREATE TABLE bank.notes (branch INT NOT NULL PRIMARY KEY, note VARCHAR(64) NOT NULL)");
                StringBuilder notes = new StringBuilder();
                for (int b = 1; b <= SHAPE.branches(); b++) {
                    notes.append(b == 1 ? "" : ",").append('(').append(b).append(",'note ").append(b).append("')");
                }
                run(c, "INSERT INTO bank.notes VALUES " + notes);
            }
            AdminClient primary = CleaveJar.awaitAdmin(a, up, log);
            String url = "http://127.0.0.1:" + DaemonInfo.read(a.home()).orElseThrow().adminPort();
            String token = Files.readString(a.home().adminTokenFile()).trim();

            BankTransfers load = new BankTransfers(SHAPE, a.proxyPort(), 29, new int[] {150, 170});
            StandbyConfig addresses = StandbyIT.freeAddresses();
            long seededVersion;
            try {
                load.start(2);
                load.awaitAcknowledged(30);
                StandbySeed.Result seeded = new StandbySeed(BackupConfig.NONE, System.getenv(),
                        line -> System.out.println("standby: " + line))
                        .run(new StandbySeed.Request(url, token, work.resolve("standby"), work.resolve("seed").toString(),
                                addresses));
                standby = new Daemon(DaemonOptions.standard(new CleaveHome(seeded.home()), seeded.config(), System.getenv())
                        .withProxy(CleaveProxyService.FACTORY));
                standby.start();
                seededVersion = standby.shardMaps().current().version();
                await(standby, r -> r.shards().size() == 2 && r.shards().stream().allMatch(ShardReplication::replicating),
                        "every replica runs");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!primary.standby().semiSync()
                        || !primary.standby().shards().stream().allMatch(s -> s.semiSyncClients() == 1)) {
                    assertThat(System.nanoTime()).as("the primary waits for the standby within a minute").isLessThan(deadline);
                    Thread.sleep(100);
                }

                // Layout changes a standby cannot follow are refused while it is attached.
                assertThatThrownBy(() -> primary.startScale(3)).as("scale with a standby attached")
                        .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> assertThat(e.status()).isEqualTo(409))
                        .hasMessageContaining("a standby is attached");
                assertThatThrownBy(() -> primary.startImport("mysql://root:x@127.0.0.1:1/db")).as("import with a standby")
                        .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> assertThat(e.status()).isEqualTo(409))
                        .hasMessageContaining("a standby is attached");

                MoveRecord first = primary.startMove("branch", DONE_MOVE, 1);
                awaitPhase(primary, first.id, MovePhase.DONE);
                MoveRecord table = primary.shardTable("bank.notes", Map.of("keyspace", "branch", "column", "branch"));
                awaitPhase(primary, table.id, MovePhase.DONE);
                load.awaitAcknowledged(50);
                MoveRecord cut = primary.startMove("branch", CUT_MOVE, 0);
                assertThat(cut.id).as("the move the primary halts at").isEqualTo(3);
                awaitPhase(primary, cut.id, MovePhase.CLEANING_UP);
                // Clients now write the moved keys on shard 0 only; the standby's status shows the version replicated.
                load.awaitAcknowledged(100);
                long published = new ShardMapStore(a.home().shardMapFile()).read().version();
                StandbyReport report = await(standby, r -> r.maps().replicated() == published,
                        "the standby holds the primary's version " + published);
                assertThat(report.maps().routed()).as("the standby's own version until it is promoted").isEqualTo(seededVersion);

                // The primary host is gone: its daemon halts at the gate, every shard is killed.
                List<Long> shards = List.copyOf(a.serverPids().values());
                assertThat(shards).hasSize(2);
                load.outageBegins();
                Files.createFile(gate);
                CleaveJar.awaitHalt(up, log, "halting move 3 at CLEANING_UP");
                for (long pid : shards) {
                    ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
                }
                for (long pid : shards) {
                    ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).join());
                }
            } finally {
                load.close();
            }
            System.out.println("StandbyLayoutIT: " + load.summary());
            assertThat(load.errors()).as("errors clients saw before the loss").isEmpty();
            ShardMap last = new ShardMapStore(a.home().shardMapFile()).read();
            assertThat(last.ghosts()).as("the primary died before the second move's cleanup").hasSize(1);
            assertThat(last.version()).isGreaterThan(seededVersion);

            Process promote = new ProcessBuilder(CleaveJar.javaBin(), "-jar", CleaveJar.JAR.toString(), "promote",
                    "--home=" + standby.home().root()).redirectErrorStream(true).start();
            String out = new String(promote.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(promote.waitFor(2, TimeUnit.MINUTES)).isTrue();
            System.out.println("cleave promote:\n" + out);
            assertThat(promote.exitValue()).as(out).isZero();
            assertThat(out).contains("shard map: version " + last.version() + " (replicated from the primary; was "
                    + seededVersion + ")");
            ShardMap installed = standby.shardMaps().current();
            assertThat(installed).as("the map the promoted proxy routes by").isEqualTo(last);
            assertThat(new ShardMapStore(standby.home().shardMapFile()).read()).isEqualTo(last);

            try (Connection c = DriverManager.getConnection("jdbc:mysql://" + addresses.proxyListen() + "/bank"
                    + "?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", "")) {
                Map<Long, Long> balances = byKey(c);
                assertThat(load.differences(balances)).as("accounts (read by key) that differ from the acknowledged"
                        + " transfers").isEmpty();
                assertThat(balances.values().stream().mapToLong(Long::longValue).sum()).as("the bank's total")
                        .isEqualTo(SHAPE.rows() * BankTransfers.INITIAL);
                try (PreparedStatement ps = c.prepareStatement("SELECT note FROM notes WHERE branch = ?")) {
                    for (int b = 1; b <= SHAPE.branches(); b++) {
                        ps.setInt(1, b);
                        try (ResultSet rs = ps.executeQuery()) {
                            assertThat(rs.next()).as("note %d found by its key", b).isTrue();
                            assertThat(rs.getString(1)).isEqualTo("note " + b);
                        }
                    }
                }
                run(c, "UPDATE accounts SET balance = balance + 0 WHERE branch = 160 AND id = 1");
            }

            // Each shard holds the rows the installed map gives it; besides them, only the unfinished move's ghosts.
            Topology topology = standby.config().sharding().topology();
            Map<Integer, Long> expected = new HashMap<>();
            Map<Integer, Long> expectedNotes = new HashMap<>();
            for (int b = 1; b <= SHAPE.branches(); b++) {
                int owner = installed.shardOf("branch", ShardKey.of(b), topology.keyspaces().get("branch").function());
                expected.merge(owner, (long) SHAPE.accounts(), Long::sum);
                expectedNotes.merge(owner, 1L, Long::sum);
            }
            assertThat(expected).as("both shards own keys").hasSize(2);
            for (int s = 0; s < 2; s++) {
                try (Connection sc = shard(standby, s)) {
                    String owned = ownedBy(installed, topology, s);
                    assertThat(Long.parseLong(single(sc, "SELECT COUNT(*) FROM bank.accounts WHERE " + owned)))
                            .as("accounts on shard %d the map gives it", s).isEqualTo(expected.get(s));
                    assertThat(Long.parseLong(single(sc, "SELECT COUNT(*) FROM bank.accounts WHERE NOT (" + owned
                            + ") AND NOT (" + ghostsOn(installed, s) + ")"))).as("other accounts on shard %d", s).isZero();
                    assertThat(Long.parseLong(single(sc, "SELECT COUNT(*) FROM bank.notes WHERE " + owned)))
                            .as("notes on shard %d", s).isEqualTo(expectedNotes.get(s));
                    assertThat(Long.parseLong(single(sc, "SELECT COUNT(*) FROM bank.notes WHERE NOT (" + owned
                            + ") AND NOT (" + ghostsOn(installed, s) + ")"))).as("other notes on shard %d", s).isZero();
                }
            }
        } finally {
            if (up != null) {
                up.destroyForcibly();
            }
            if (standby != null) {
                standby.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /** Every account's balance, each read by its own key (routed by the map, not gathered from every shard). */
    private static Map<Long, Long> byKey(Connection c) throws Exception {
        Map<Long, Long> out = new HashMap<>();
        try (PreparedStatement ps = c.prepareStatement("SELECT balance FROM accounts WHERE branch = ? AND id = ?")) {
            for (int b = 1; b <= SHAPE.branches(); b++) {
                for (int id = 1; id <= SHAPE.accounts(); id++) {
                    ps.setInt(1, b);
                    ps.setInt(2, id);
                    try (ResultSet rs = ps.executeQuery()) {
                        if (rs.next()) {
                            out.put(b * 1_000_000L + id, rs.getLong(1));
                        }
                    }
                }
            }
        }
        return out;
    }

    /** A condition on {@code branch} that holds for the branches {@code map} gives {@code shard}. */
    private static String ownedBy(ShardMap map, Topology topology, int shard) {
        StringBuilder in = new StringBuilder("branch IN (0");
        for (int b = 1; b <= SHAPE.branches(); b++) {
            if (map.shardOf("branch", ShardKey.of(b), topology.keyspaces().get("branch").function()) == shard) {
                in.append(',').append(b);
            }
        }
        return in.append(')').toString();
    }

    /** A condition on {@code branch} that holds for the keys the map's ghosts name on {@code shard}. */
    private static String ghostsOn(ShardMap map, int shard) {
        StringBuilder or = new StringBuilder("FALSE");
        for (io.cleave.router.shardmap.Ghost g : map.ghosts()) {
            if (g.shard() == shard && g.keys() instanceof io.cleave.router.shardmap.KeySet.Keys k) {
                or.append(" OR branch BETWEEN ").append(k.from()).append(" AND ").append(k.to());
            }
        }
        return or.toString();
    }

    private static void awaitPhase(AdminClient admin, long id, MovePhase phase) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        MoveRecord r = admin.move(id);
        while (r.phase != phase) {
            assertThat(r.phase.terminal() && r.phase != phase).as("move %d ended %s: %s", id, r.phase, r.message).isFalse();
            assertThat(System.nanoTime()).as("move %d reached %s within a minute (at %s)", id, phase, r.phase)
                    .isLessThan(deadline);
            Thread.sleep(50);
            r = admin.move(id);
        }
    }
}
