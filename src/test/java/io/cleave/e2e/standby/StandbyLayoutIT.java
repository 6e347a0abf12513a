package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.home.DaemonInfo;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.standby.StandbyReport;
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

/**
 * Moves and shard-table with a standby attached, then the primary host lost and the standby promoted:
 * the standby must route by the primary's newest shard map, which reached it with the rows. While bank
 * transfers run through the primary's proxy: a key range moves to the other shard and is cleaned up, a
 * table is sharded (its rows leave the default shard), and a second key range moves and its primary dies
 * right after the cutover (clients already wrote the moved keys on their new shard; the old rows are not
 * cleaned up). Through the promoted home's proxy every account read by its key holds what the acknowledged
 * transfers left, the bank's total is unchanged, every note is found, and each shard holds exactly the
 * rows the installed map gives it, once the promoted home deleted the unfinished move's old rows (which
 * the map named as ghosts meanwhile); moves then go on there. A standby routing by the seed's map would
 * read moved keys on the shard they left. A second case closes
 * the window between a cutover and the standby holding its map (see its test).
 */
class StandbyLayoutIT {

    static final java.nio.file.attribute.FileAttribute<?> SEARCHABLE =
            java.nio.file.attribute.PosixFilePermissions.asFileAttribute(
                    java.nio.file.attribute.PosixFilePermissions.fromString("rwx--x--x"));
    static final BankTransfers.Shape SHAPE = new BankTransfers.Shape(200, 10, 100);
    /** Branches moved to shard 1 and cleaned up; branches moved to shard 0 when the primary dies. */
    private static final String DONE_MOVE = "1-20";
    private static final String CUT_MOVE = "150-170";
    /** Three shards: the default shard 0 (where the map versions are written) holds no branch. */
    private static final String KEYS_OFF_THE_DEFAULT_SHARD = """
            sharding:
              keyspaces:
                - name: branch
                  function: range
                  ranges:
                    - { from: 1, to: 100, shard: 1 }
                    - { from: 101, shard: 2 }
              tables:
                - { name: accounts, keyspace: branch, column: branch }
            """;

    @Test
    void aPromotedStandbyRoutesByThePrimarysNewestMapAfterMovesAndShardTable() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-standby-layout-", SEARCHABLE);
        Path gate = work.resolve("halt-gate");
        Pair pair = null;
        try (CleaveTestHome a = CleaveTestHome.builder().shards(2).extraYaml(StandbyIT.SHARDING).create()) {
            // The third move (the second key range) halts the primary's daemon after its cutover, once the gate exists.
            pair = Pair.start(a, work, c -> {
                run(c, "CREATE TABLE bank.notes (branch INT NOT NULL PRIMARY KEY, note VARCHAR(64) NOT NULL)");
                StringBuilder notes = new StringBuilder();
                for (int b = 1; b <= SHAPE.branches(); b++) {
                    notes.append(b == 1 ? "" : ",").append('(').append(b).append(",'note ").append(b).append("')");
                }
                run(c, "INSERT INTO bank.notes VALUES " + notes);
            }, "-Dcleave.test.moveHaltAt=CLEANING_UP", "-Dcleave.test.moveHaltGate=" + gate, "-Dcleave.test.moveHaltMove=3");
            AdminClient primary = pair.primary;
            BankTransfers load = new BankTransfers(SHAPE, a.proxyPort(), 29, new int[] {150, 170});
            try {
                load.start(2);
                load.awaitAcknowledged(30);
                pair.seed();

                MoveRecord first = primary.startMove("branch", DONE_MOVE, 1);
                awaitPhase(primary, first.id, MovePhase.DONE);
                MoveRecord table = primary.shardTable("bank.notes", Map.of("keyspace", "branch", "column", "branch"));
                awaitPhase(primary, table.id, MovePhase.DONE);
                System.out.printf("StandbyLayoutIT: cutover pauses with the map written for the standby: move %.1f ms,"
                        + " shard-table %.1f ms%n", primary.move(first.id).pauseMillis, primary.move(table.id).pauseMillis);
                load.awaitAcknowledged(50);
                MoveRecord cut = primary.startMove("branch", CUT_MOVE, 0);
                assertThat(cut.id).as("the move the primary halts at").isEqualTo(3);
                awaitPhase(primary, cut.id, MovePhase.CLEANING_UP);
                // Clients now write the moved keys on shard 0 only; the standby's status shows the version replicated.
                load.awaitAcknowledged(100);
                long published = pair.primaryMap().version();
                StandbyReport report = await(pair.standby, r -> r.maps().replicated() == published,
                        "the standby holds the primary's version " + published);
                assertThat(report.maps().routed()).as("the standby's own version until it is promoted")
                        .isEqualTo(pair.seededVersion);
                assertThat(pair.standby.meterRegistry().scrape()).contains(
                        "cleave_standby_shard_map_version{kind=\"replicated\"} " + published + ".0",
                        "cleave_standby_shard_map_version{kind=\"routed\"} " + pair.seededVersion + ".0");

                // The primary host is gone: its daemon halts at the gate, every shard is killed.
                load.outageBegins();
                Files.createFile(gate);
                CleaveJar.awaitHalt(pair.up, pair.log, "halting move 3 at CLEANING_UP");
                pair.killPrimaryShards();
            } finally {
                load.close();
            }
            System.out.println("StandbyLayoutIT: " + load.summary());
            assertThat(load.errors()).as("errors clients saw before the loss").isEmpty();
            ShardMap last = pair.primaryMap();
            assertThat(last.ghosts()).as("the primary died before the second move's cleanup").hasSize(1);
            assertThat(last.version()).isGreaterThan(pair.seededVersion);

            String out = pair.promote();
            assertThat(out).contains("shard map: version " + last.version() + " (replicated from the primary; was "
                    + pair.seededVersion + ")");
            // The interrupted move's old rows on shard 1 are deleted by the promoted home, then its ghost dropped.
            AdminClient promoted = AdminClient.connect(pair.standby.home()).orElseThrow();
            awaitPhase(promoted, 3, MovePhase.DONE);
            ShardMap installed = pair.standby.shardMaps().current();
            assertThat(installed).as("the primary's newest map, the interrupted move's ghost dropped")
                    .isEqualTo(last.withoutGhosts(3));
            assertThat(new ShardMapStore(pair.standby.home().shardMapFile()).read()).isEqualTo(installed);

            try (Connection c = pair.standbyProxy()) {
                assertThat(load.differences(byKey(c))).as("accounts (read by key) that differ from the acknowledged"
                        + " transfers").isEmpty();
                assertThat(byKey(c).values().stream().mapToLong(Long::longValue).sum()).as("the bank's total")
                        .isEqualTo(SHAPE.rows() * BankTransfers.INITIAL);
                checkNotes(c);
                run(c, "UPDATE accounts SET balance = balance + 0 WHERE branch = 160 AND id = 1");
            }
            checkShards(pair.standby, installed, "accounts", SHAPE.accounts());
            checkShards(pair.standby, installed, "notes", 1);
            // Moves go on on the promoted home, with ids after the old primary's.
            MoveRecord next = promoted.startMove("branch", "30-40", 1);
            assertThat(next.id).isGreaterThan(3);
            awaitPhase(promoted, next.id, MovePhase.DONE);
            try (Connection c = pair.standbyProxy()) {
                assertThat(load.differences(byKey(c))).as("accounts read by key after a move on the promoted home")
                        .isEmpty();
            }
            checkShards(pair.standby, pair.standby.shardMaps().current(), "accounts", SHAPE.accounts());
        } finally {
            if (pair != null) {
                pair.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /**
     * The window between a move's cutover and the standby holding its map: the standby's replica of the default
     * shard (where the versions are written) stops receiving before a move's flip. The primary's cutover then
     * waits, its statements on the moving keys held, the new version in its state file but not published, until
     * the standby acknowledges it; the primary dies there. The promoted standby routes by the version before the
     * flip, whose source shard holds every row the acknowledged transfers wrote, and deletes the target's copy.
 * (Shard 0 holds no keys, so
     * the transfers do not wait for it; without the map's replication the flip is published at once, clients
     * write the moved keys on the target, and the promoted standby reads them on the source.)
     */
    @Test
    void aCutoverPublishesItsMapOnlyOnceTheStandbyHoldsIt() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-standby-cutover-", SEARCHABLE);
        Pair pair = null;
        Path gate = work.resolve("pause-gate");
        try (CleaveTestHome a = CleaveTestHome.builder().shards(3).extraYaml(KEYS_OFF_THE_DEFAULT_SHARD).create()) {
            // The move waits before its cutover (its first version published) until the gate exists.
            pair = Pair.start(a, work, c -> {
            }, "-Dcleave.test.movePauseAt=CUTTING_OVER", "-Dcleave.test.movePauseGate=" + gate);
            BankTransfers load = new BankTransfers(SHAPE, a.proxyPort(), 31, new int[] {1, 20});
            long flipVersion;
            long moveId;
            try {
                load.start(2);
                load.awaitAcknowledged(30);
                pair.seed();
                MoveRecord move = pair.primary.startMove("branch", DONE_MOVE, 2);
                moveId = move.id;
                awaitPhase(pair.primary, move.id, MovePhase.CUTTING_OVER);
                long ghostVersion = pair.seededVersion + 1;
                assertThat(pair.primaryMap().version()).as("the move's first version (its target's ghost)")
                        .isEqualTo(ghostVersion);
                await(pair.standby, r -> r.maps().replicated() == ghostVersion,
                        "the standby holds the move's first version " + ghostVersion);
                try (Connection s0 = shard(pair.standby, 0)) {
                    run(s0, "STOP SLAVE IO_THREAD");
                }
                Files.createFile(gate);
                flipVersion = ghostVersion + 1;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (pair.primaryMap().version() < flipVersion
                        || pair.primary.standby().shards().get(0).waitingCommits() < 1) {
                    assertThat(System.nanoTime()).as("the flip's version waits for the standby on shard 0 within a"
                            + " minute; move: %s", pair.primary.move(move.id).phase).isLessThan(deadline);
                    Thread.sleep(50);
                }
                Thread.sleep(1_000);
                assertThat(pair.primary.move(move.id).phase).as("the cutover waits: the version is not published")
                        .isEqualTo(MovePhase.CUTTING_OVER);
                load.outageBegins();
                pair.up.destroyForcibly();
                pair.up.waitFor(30, TimeUnit.SECONDS);
                pair.killPrimaryShards();
            } finally {
                load.close();
            }
            System.out.println("StandbyLayoutIT (cutover): " + load.summary());
            assertThat(load.errors()).as("errors clients saw before the loss").isEmpty();
            assertThat(pair.primaryMap().version()).as("the primary's file held the flip").isEqualTo(flipVersion);

            String out = pair.promote();
            long ghostVersion = flipVersion - 1;
            assertThat(out).contains("shard map: version " + ghostVersion + " (replicated from the primary; was "
                    + pair.seededVersion + ")");
            // The target's copy (the ghost of the version installed) is deleted by the promoted home.
            awaitPhase(AdminClient.connect(pair.standby.home()).orElseThrow(), moveId, MovePhase.DONE);
            ShardMap installed = pair.standby.shardMaps().current();
            assertThat(installed.version()).isEqualTo(ghostVersion + 1);
            Topology topology = pair.standby.config().sharding().topology();
            assertThat(installed.shardOf("branch", ShardKey.of(1), topology.keyspaces().get("branch").function()))
                    .as("the moving keys stay on their source").isEqualTo(1);
            assertThat(installed.ghosts()).as("the target's copy deleted").isEmpty();
            checkLedger(pair, load);
            checkShards(pair.standby, installed, "accounts", SHAPE.accounts());
        } finally {
            if (pair != null) {
                pair.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /**
     * Through the promoted standby's proxy: every account read by its key holds what the acknowledged transfers
     * left, the bank's total is unchanged, and a read across the shards gives the same balances.
     */
    static void checkLedger(Pair pair, BankTransfers load) throws Exception {
        try (Connection c = pair.standbyProxy()) {
            Map<Long, Long> balances = byKey(c);
            assertThat(balances).as("every account found by its key").hasSize((int) SHAPE.rows());
            assertThat(load.differences(balances)).as("accounts (read by key) that differ from the acknowledged"
                    + " transfers").isEmpty();
            assertThat(balances.values().stream().mapToLong(Long::longValue).sum()).as("the bank's total")
                    .isEqualTo(SHAPE.rows() * BankTransfers.INITIAL);
            assertThat(BankTransfers.balances(c, "SELECT branch, id, balance FROM accounts")).as("read across shards")
                    .isEqualTo(balances);
        }
    }

    /** Through {@code c}: every note of bank.notes found by its key. */
    static void checkNotes(Connection c) throws Exception {
        try (PreparedStatement ps = c.prepareStatement("SELECT note FROM notes WHERE branch = ?")) {
            for (int b = 1; b <= SHAPE.branches(); b++) {
                ps.setInt(1, b);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).as("note %d found by its key", b).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("note " + b);
                }
            }
        }
    }

    /** Each shard holds the rows of {@code table} the map gives it, {@code perBranch} a branch; besides them only ghosts. */
    static void checkShards(Daemon daemon, ShardMap map, String table, long perBranch) throws Exception {
        Topology topology = daemon.config().sharding().topology();
        Map<Integer, Long> expected = new HashMap<>();
        for (int b = 1; b <= SHAPE.branches(); b++) {
            expected.merge(map.shardOf("branch", ShardKey.of(b), topology.keyspaces().get("branch").function()), perBranch,
                    Long::sum);
        }
        for (int s = 0; s < map.shardCount(); s++) {
            try (Connection sc = shard(daemon, s)) {
                String owned = ownedBy(map, topology, s);
                assertThat(Long.parseLong(single(sc, "SELECT COUNT(*) FROM bank." + table + " WHERE " + owned)))
                        .as("%s on shard %d the map gives it", table, s).isEqualTo(expected.getOrDefault(s, 0L));
                assertThat(Long.parseLong(single(sc, "SELECT COUNT(*) FROM bank." + table + " WHERE NOT (" + owned
                        + ") AND NOT (" + ghostsOn(map, s) + ")"))).as("other %s on shard %d", table, s).isZero();
            }
        }
    }

    /** Every account's balance, each read by its own key (routed by the map, not gathered from every shard). */
    static Map<Long, Long> byKey(Connection c) throws Exception {
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

    static void awaitPhase(AdminClient admin, long id, MovePhase phase) throws Exception {
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

    /** A primary run from the shipped jar in its own process, with the bank, and its standby in this JVM. */
    static final class Pair implements AutoCloseable {
        final CleaveTestHome a;
        final Path work;
        final Process up;
        final Path log;
        final AdminClient primary;
        final String url;
        final String token;
        final StandbyConfig addresses;
        Daemon standby;
        /** What the seed made: the standby's home and config, to start its daemon again. */
        io.cleave.manager.standby.StandbySeed.Result seeded;
        long seededVersion;

        private Pair(CleaveTestHome a, Path work, Process up, Path log, AdminClient primary) throws Exception {
            this.a = a;
            this.work = work;
            this.up = up;
            this.log = log;
            this.primary = primary;
            this.url = "http://127.0.0.1:" + DaemonInfo.read(a.home()).orElseThrow().adminPort();
            this.token = Files.readString(a.home().adminTokenFile()).trim();
            // Room for one shard more: a scale's new shard has its replica on the standby.
            this.addresses = StandbyIT.freeAddresses(a.shards() + 1);
        }

        interface Setup {
            void run(Connection proxy) throws Exception;
        }

        static Pair start(CleaveTestHome a, Path work, Setup setup, String... jvmOptions) throws Exception {
            assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
            Path log = work.resolve("primary.log");
            Process up = CleaveJar.up(a, log, jvmOptions);
            try (Connection c = CleaveJar.awaitProxy(a, up, log, "")) {
                BankTransfers.create(c, SHAPE);
                setup.run(c);
            }
            return new Pair(a, work, up, log, CleaveJar.awaitAdmin(a, up, log));
        }

        /** Seeds the standby (clients may write meanwhile) and waits until the primary waits for it. */
        void seed() throws Exception {
            seeded = StandbyIT.seed(url, token, work, addresses);
            standby = StandbyIT.startAndAwaitSemiSync(seeded, url, token, a.shards());
            seededVersion = standby.shardMaps().current().version();
        }

        ShardMap primaryMap() {
            return new ShardMapStore(a.home().shardMapFile()).read();
        }

        void killPrimaryShards() {
            killPrimaryShards(a.shards());
        }

        /** SIGKILL of every shard of the primary, {@code count} of them. */
        void killPrimaryShards(int count) {
            List<Long> shards = List.copyOf(a.serverPids().values());
            assertThat(shards).hasSize(count);
            for (long pid : shards) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
            for (long pid : shards) {
                ProcessHandle.of(pid).ifPresent(p -> p.onExit().orTimeout(30, TimeUnit.SECONDS).join());
            }
        }

        /** {@code cleave promote --home B}, as an operator runs it; its output. */
        String promote() throws Exception {
            Process promote = new ProcessBuilder(CleaveJar.javaBin(), "-jar", CleaveJar.JAR.toString(), "promote",
                    "--home=" + standby.home().root()).redirectErrorStream(true).start();
            String out = new String(promote.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(promote.waitFor(2, TimeUnit.MINUTES)).isTrue();
            System.out.println("cleave promote:\n" + out);
            assertThat(promote.exitValue()).as(out).isZero();
            return out;
        }

        Connection standbyProxy() throws Exception {
            return DriverManager.getConnection("jdbc:mysql://" + addresses.proxyListen() + "/bank"
                    + "?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", "");
        }

        @Override
        public void close() {
            up.destroyForcibly();
            if (standby != null) {
                standby.close();
            }
        }
    }
}
