package io.cleave.e2e.standby;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.StandaloneServer;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.standby.layout.MapRows;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.standby.StandbyIT.run;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyIT.single;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A standby promoted while its primary's import stood between its cutover and the source's detach: the map versions
 * it replicated still name the attached source, which it cannot reach, though the cutover placed every table on the
 * shards. The primary's standby has semi-sync off (an import with one counted on is refused), so the test waits for
 * the standby to hold the cutover's version and the rows before the primary host is SIGKILLed; {@code cleave promote}
 * then installs the map without the source and the promoted proxy answers every imported row as the source holds it.
 * Before, the promotion refused that map and started no proxy.
 */
class StandbyImportIT {

    private static final int ROWS = 300;

    @Test
    void aStandbyPromotedAfterAnImportsCutoverServesTheImportedDatabaseFromItsShards() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-standby-import-", StandbyLayoutIT.SEARCHABLE);
        StandbyLayoutIT.Pair pair = null;
        try (StandaloneServer source = StandaloneServer.start(List.of());
             CleaveTestHome a = CleaveTestHome.builder().shards(2).extraYaml(StandbyIT.SHARDING).create()) {
            source.root("CREATE DATABASE shop; CREATE USER importer@'%' IDENTIFIED BY 'imp';"
                    + " GRANT SELECT, INSERT, UPDATE, DELETE, SHOW VIEW, TRIGGER, RELOAD, REPLICATION CLIENT,"
                    + " REPLICATION SLAVE ON *.* TO importer@'%'; GRANT ALL ON shop.* TO importer@'%'");
            try (Connection c = source.connect("importer", "imp", "shop"); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE items (id INT NOT NULL PRIMARY KEY, name VARCHAR(40) NOT NULL)");
                StringBuilder rows = new StringBuilder();
                for (int i = 1; i <= ROWS; i++) {
                    rows.append(i == 1 ? "" : ",").append('(').append(i).append(",'item ").append(i).append("')");
                }
                s.execute("INSERT INTO items VALUES " + rows);
            }
            pair = StandbyLayoutIT.Pair.start(a, work, c -> { }, "-Dcleave.test.moveHaltAt=AFTER_FLIP",
                    "-Dcleave.test.moveHaltGate=" + work.resolve("never"));
            pair.seed();
            CleaveJar.Result off = CleaveJar.run(a, "standby", "--semi-sync", "off");
            assertThat(off.code()).as(off.out()).isZero();
            CleaveJar.Result started = CleaveJar.run(a, "import", "--from", "mysql://importer:imp@127.0.0.1:"
                    + source.port() + "/shop");
            assertThat(started.code()).as(started.out()).isZero();
            FailoverDuringMoveIT.awaitLogged(pair.log, " waits at AFTER_FLIP");

            ShardMap flipped = pair.primaryMap();
            assertThat(flipped.attached()).as("the source still attached").hasSize(1);
            assertThat(flipped.rules().get("items")).as("items placed on the shards by the cutover")
                    .isEqualTo(new TableRule.Unsharded("items", 0));
            awaitReplicated(pair, flipped.version());
            FailoverDuringMoveIT.killHost(pair, a);

            String out = pair.promote();
            assertThat(out).contains("shard map: version " + flipped.version());
            assertThat(pair.standby.shardMaps().current().attached()).as("the source dropped").isEmpty();
            // The import's move, cut short after its flip, is settled by the installed rules (nothing left frozen).
            long moveId = flipped.movingTables().get("items");
            MoveRecord settled = AdminClient.connect(pair.standby.home()).orElseThrow().move(moveId);
            assertThat(settled.origin).isEqualTo("leftover");
            assertThat(settled.phase).as(settled.message).isEqualTo(MovePhase.DONE);
            assertThat(pair.standby.shardMaps().current().movingTables()).as("no table frozen").isEmpty();
            List<String> expected = rows(source.connect("importer", "imp", "shop"));
            assertThat(expected).hasSize(ROWS);
            try (Connection c = pair.standbyProxy()) {
                run(c, "USE shop");
                assertThat(rows(c)).as("every imported row through the promoted proxy").isEqualTo(expected);
            }
        } finally {
            if (pair != null) {
                pair.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /** Until the standby's default shard holds map version {@code version} and every row of items (semi-sync is off). */
    private static void awaitReplicated(StandbyLayoutIT.Pair pair, long version) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Connection b = shard(pair.standby, 0)) {
            while (MapRows.newestVersion(b) < version
                    || !single(b, "SELECT COUNT(*) FROM shop.items").equals(String.valueOf(ROWS))) {
                assertThat(System.nanoTime()).as("the standby replicates the cutover").isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    private static List<String> rows(Connection c) throws SQLException {
        try (c; Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT id, name FROM items ORDER BY id")) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getInt(1) + " " + rs.getString(2));
            }
            return out;
        }
    }
}
