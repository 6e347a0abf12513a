package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.scale.ScaleStatus;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.standby.StandbyIT.run;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyIT.single;
import static io.cleave.e2e.standby.StandbyLayoutIT.SHAPE;
import static io.cleave.e2e.standby.StandbyLayoutIT.awaitPhase;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Moves of whole tables the primary host's loss cut short, settled by the promoted standby as its installed map
 * says (before, each left every new move refused, naming it). Bank transfers run through the primary's proxy, each
 * client recording what it saw acknowledged; the move waits at a point of its held cutover and every process of
 * the primary host is SIGKILLed there; {@code cleave promote} on the standby.
 * <ul>
 *   <li>A {@code cleave shard-table} of bank.members, whose unique e-mail becomes a global unique key: killed once
 *       the key is registered and the map not flipped (the table stays on its home, the key and its lookups go,
 *       the target's copies are deleted, the server's own unique index refuses a duplicate), or after the flip
 *       (the table is sharded, the key complete and enforced across shards, the home's rows that left deleted).</li>
 *   <li>A scale from 2 to 3 shards, killed in its move adding the shard,
 *       before its flip (the map keeps 2 shards, the reference table's copies on the third are deleted, and a scale
 *       on the promoted home adds it again) or after it (3 shards).</li>
 * </ul>
 * After each: every account read by key matches the acknowledged transfers, the total is unchanged, nothing is
 * prepared, each shard is a writable primary, the move is journaled as settled, and a new move runs. Only with
 * {@code -Dstandby.moveFail.all=true} (20 to 70 s a case): the default run keeps to FailoverDuringMoveIT's one case.
 */
class PromotedTableMovesIT {

    private static final boolean ALL = Boolean.getBoolean("standby.moveFail.all");
    private static final int MEMBERS = SHAPE.branches();
    private static final int CURRENCIES = 40;

    @ParameterizedTest
    @ValueSource(strings = {"KEYS_REGISTERED", "AFTER_FLIP"})
    void aShardTableMakingAGlobalUniqueKeyIsSettledByTheInstalledMap(String point) throws Exception {
        assumeTrue(ALL, "-Dstandby.moveFail.all=true runs the shard-table cut short");
        boolean flipped = point.equals("AFTER_FLIP");
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-promoted-key-", StandbyLayoutIT.SEARCHABLE);
        StandbyLayoutIT.Pair pair = null;
        try (CleaveTestHome a = CleaveTestHome.builder().shards(2).extraYaml(StandbyIT.SHARDING).create()) {
            pair = StandbyLayoutIT.Pair.start(a, work, c -> {
                run(c, "CREATE TABLE bank.members (branch INT NOT NULL PRIMARY KEY, email VARCHAR(64) NOT NULL,"
                        + " UNIQUE KEY email (email))");
                StringBuilder rows = new StringBuilder();
                for (int b = 1; b <= MEMBERS; b++) {
                    rows.append(b == 1 ? "" : ",").append('(').append(b).append(",'m").append(b).append("@x')");
                }
                run(c, "INSERT INTO bank.members VALUES " + rows);
            }, "-Dcleave.test.moveHaltAt=" + point, "-Dcleave.test.moveHaltGate=" + work.resolve("never"));
            BankTransfers load = new BankTransfers(SHAPE, a.proxyPort(), 41, new int[] {1, 200});
            long moveId;
            try {
                load.start(2);
                load.awaitAcknowledged(30);
                pair.seed();
                moveId = pair.primary.shardTable("bank.members", Map.of("keyspace", "branch", "column", "branch")).id;
                FailoverDuringMoveIT.awaitLogged(pair.log, "test hook: move " + moveId + " waits at " + point);
                load.outageBegins();
                FailoverDuringMoveIT.killHost(pair, a);
            } finally {
                load.close();
            }
            System.out.println("PromotedTableMovesIT (shard-table, " + point + "): " + load.summary());
            assertThat(load.errors()).as("errors clients saw before the loss").isEmpty();
            assertThat(pair.primaryMap().movingTables()).as("the shard-table under way").containsValue(moveId);
            // The dead primary's catalog, as the standby's replica of its default shard holds it.
            try (Connection home = shard(pair.standby, 0)) {
                assertThat(single(home, "SELECT COUNT(*) FROM cleave.unique_key_builds")).as("the key marked unfinished")
                        .isEqualTo("1");
            }

            pair.promote();
            AdminClient promoted = AdminClient.connect(pair.standby.home()).orElseThrow();
            MoveRecord settled = promoted.move(moveId);
            assertThat(settled.origin).isEqualTo("leftover");
            assertThat(settled.phase).as(settled.message).isEqualTo(MovePhase.DONE);
            ShardMap installed = pair.standby.shardMaps().current();
            assertThat(installed.movingTables()).as("no table frozen").isEmpty();
            assertThat(installed.ghosts()).as("no ghost left").isEmpty();
            TableRule rule = installed.rules().get("members");
            try (Connection s0 = shard(pair.standby, 0)) {
                assertThat(single(s0, "SELECT COUNT(*) FROM cleave.unique_key_builds")).as("no key left unfinished")
                        .isEqualTo("0");
                assertThat(single(s0, "SELECT COUNT(*) FROM cleave.unique_keys WHERE table_name = 'members'"))
                        .as("the key registered only where the table is sharded").isEqualTo(flipped ? "1" : "0");
            }
            for (int s = 0; s < 2; s++) {
                try (Connection sc = shard(pair.standby, s)) {
                    assertThat(single(sc, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'cleave'"
                            + " AND TABLE_NAME LIKE '%members%'")).as("lookup tables of members on shard %d", s)
                            .isEqualTo(flipped ? "1" : "0");
                }
            }
            if (flipped) {
                assertThat(rule).isEqualTo(new TableRule.Sharded("members", "branch", "branch"));
                StandbyLayoutIT.checkShards(pair.standby, installed, "members", 1);
            } else {
                assertThat(rule).as("members stays on its home").isNull();
                try (Connection s1 = shard(pair.standby, 1)) {
                    assertThat(single(s1, "SELECT COUNT(*) FROM bank.members")).as("the target's copies deleted")
                            .isEqualTo("0");
                }
            }
            try (Connection c = pair.standbyProxy()) {
                checkMembers(c);
                // Branch 201 goes to shard 1, branch 3's member is on shard 0 once sharded: the key spans them.
                assertThatThrownBy(() -> run(c, "INSERT INTO members VALUES (201, 'm3@x')")).as("a duplicate e-mail")
                        .hasMessageContaining("Duplicate entry 'm3@x' for key 'email'");
                run(c, "INSERT INTO members VALUES (202, 'm202@x')");
            }
            StandbyLayoutIT.checkLedger(pair, load);
            FailoverDuringMoveIT.checkPrimaryShards(pair);
            MoveRecord next = promoted.startMove("branch", "30-40", 1);
            assertThat(next.id).isGreaterThan(moveId);
            awaitPhase(promoted, next.id, MovePhase.DONE);
            StandbyLayoutIT.checkLedger(pair, load);
        } finally {
            if (pair != null) {
                pair.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"BEFORE_FLIP", "AFTER_FLIP"})
    void aScaleCutShortInItsMoveAddingShardsIsSettledByTheInstalledMap(String point) throws Exception {
        assumeTrue(ALL, "-Dstandby.moveFail.all=true runs the scale cut short");
        boolean flipped = point.equals("AFTER_FLIP");
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-promoted-scale-", StandbyLayoutIT.SEARCHABLE);
        StandbyLayoutIT.Pair pair = null;
        try (CleaveTestHome a = CleaveTestHome.builder().shards(2).portRange(3).extraYaml(StandbyIT.SHARDING).create()) {
            // Move 1 makes the reference table; the scale's move adding shard 2 is move 2.
            pair = StandbyLayoutIT.Pair.start(a, work, c -> {
                run(c, "CREATE TABLE bank.currencies (code INT NOT NULL PRIMARY KEY, name VARCHAR(16) NOT NULL)");
                StringBuilder rows = new StringBuilder();
                for (int i = 1; i <= CURRENCIES; i++) {
                    rows.append(i == 1 ? "" : ",").append('(').append(i).append(",'c").append(i).append("')");
                }
                run(c, "INSERT INTO bank.currencies VALUES " + rows);
            }, "-Dcleave.test.moveHaltAt=" + point, "-Dcleave.test.moveHaltGate=" + work.resolve("never"),
                    "-Dcleave.test.moveHaltMove=2");
            BankTransfers load = new BankTransfers(SHAPE, a.proxyPort(), 43, new int[] {1, 200});
            try {
                MoveRecord reference = pair.primary.shardTable("bank.currencies", Map.of("reference", true));
                awaitPhase(pair.primary, reference.id, MovePhase.DONE);
                load.start(2);
                load.awaitAcknowledged(30);
                pair.seed();
                startScale(pair.primary, 3);
                FailoverDuringMoveIT.awaitLogged(pair.log, "test hook: move 2 waits at " + point);
                load.outageBegins();
                FailoverDuringMoveIT.killHost(pair, a);
            } finally {
                load.close();
            }
            System.out.println("PromotedTableMovesIT (scale, " + point + "): " + load.summary());
            assertThat(load.errors()).as("errors clients saw before the loss").isEmpty();
            assertThat(pair.primaryMap().movingTables()).as("the scale's move under way").containsValue(2L);

            String out = pair.promote();
            assertThat(out).contains("shard map: version ");
            AdminClient promoted = AdminClient.connect(pair.standby.home()).orElseThrow();
            MoveRecord settled = promoted.move(2);
            assertThat(settled.origin).isEqualTo("leftover");
            assertThat(settled.phase).as(settled.message).isEqualTo(MovePhase.DONE);
            ShardMap installed = pair.standby.shardMaps().current();
            assertThat(installed.movingTables()).as("nothing frozen").isEmpty();
            assertThat(installed.shardCount()).as("the shards the installed map names").isEqualTo(flipped ? 3 : 2);
            for (int s = 0; s < 3; s++) {
                try (Connection sc = shard(pair.standby, s)) {
                    assertThat(single(sc, "SELECT COUNT(*) FROM bank.currencies")).as("currencies on shard %d", s)
                            .isEqualTo(s < installed.shardCount() ? String.valueOf(CURRENCIES) : "0");
                }
            }
            StandbyLayoutIT.checkLedger(pair, load);
            StandbyLayoutIT.checkShards(pair.standby, installed, "accounts", SHAPE.accounts());
            FailoverDuringMoveIT.checkPrimaryShards(pair);
            MoveRecord next = promoted.startMove("branch", "30-40", 1);
            assertThat(next.id).isGreaterThan(2);
            awaitPhase(promoted, next.id, MovePhase.DONE);
            if (!flipped) {
                // The shard the scale did not publish is taken again by a scale on the promoted home.
                startScale(promoted, 3);
                awaitScaleDone(promoted);
                assertThat(pair.standby.shardMaps().current().shardCount()).isEqualTo(3);
                try (Connection s2 = shard(pair.standby, 2)) {
                    assertThat(single(s2, "SELECT COUNT(*) FROM bank.currencies")).as("currencies on the added shard")
                            .isEqualTo(String.valueOf(CURRENCIES));
                }
            }
            FailoverDuringMoveIT.checkLedgerAndPlacement(pair, load);
        } finally {
            if (pair != null) {
                pair.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /** Every member found by its key through {@code c}, with its e-mail. */
    private static void checkMembers(Connection c) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("SELECT email FROM members WHERE branch = ?")) {
            for (int b = 1; b <= MEMBERS; b++) {
                ps.setInt(1, b);
                try (ResultSet rs = ps.executeQuery()) {
                    assertThat(rs.next()).as("member %d found by its key", b).isTrue();
                    assertThat(rs.getString(1)).isEqualTo("m" + b + "@x");
                }
            }
        }
    }

    /** Starts a scale to {@code shards}, asking again while the home waits to hear from its standby's daemon. */
    private static void startScale(AdminClient admin, int shards) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (true) {
            try {
                admin.startScale(shards);
                return;
            } catch (AdminClient.DaemonAnswer e) {
                assertThat(e.getMessage()).contains("its daemon has not asked for this home's shards");
                assertThat(System.nanoTime()).as("the scale is taken within 30 s").isLessThan(deadline);
                Thread.sleep(200);
            }
        }
    }

    private static void awaitScaleDone(AdminClient admin) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(2);
        ScaleStatus s = admin.scaleStatus();
        while (!s.state().equals("done")) {
            assertThat(s.state()).as("the scale: %s", s.message()).isNotEqualTo("failed");
            assertThat(System.nanoTime()).as("the scale ends within 2 minutes: %s", s).isLessThan(deadline);
            Thread.sleep(200);
            s = admin.scaleStatus();
        }
    }
}
