package io.cleave.e2e.standby;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.StandaloneServer;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.daemon.CleaveProxyService;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.daemon.DaemonOptions;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.imports.ImportStatus;
import io.cleave.manager.instance.InstancePlan;
import io.cleave.manager.instance.ShardAccount;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static io.cleave.e2e.standby.StandbyIT.run;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyIT.single;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A standby (semi-sync on) promoted while its primary imports a database: {@code cleave import} runs with a standby
 * counted on (before, it was refused with 409), the primary host is SIGKILLed with the import halted at one point of
 * its cutover, and {@code cleave promote} runs on the standby.
 * <ul>
 *   <li>Before the flip (every row copied, the map still routing the database to the source): the promoted home
 *       deletes the import's copy, drops the source and the import's rules from the map it installs, serves the other
 *       databases and refuses the imported one by name with 1044 saying why; {@code cleave import} from the promoted
 *       home then imports it, rows the source took after the failover included. Before, the promotion refused the
 *       map and started no proxy.</li>
 *   <li>Right after the flip (the source still attached): the promoted home serves the database from its shards.</li>
 * </ul>
 */
class StandbyImportIT {

    private static final int ROWS = 300;
    /** Rows of the source's table members, which the rules shard by id: its unique email is a global unique key. */
    private static final int MEMBERS = 40;
    private static final String WITH_MEMBERS = StandbyIT.SHARDING.replace("  tables:\n",
            "    - { name: member, function: hash, buckets: 16, key_type: integer }\n  tables:\n")
            + "    - { name: members, keyspace: member, column: id }\n";

    @Test
    void aStandbyPromotedBeforeAnImportsCutoverRefusesTheDatabaseUntilItIsImportedAgain() throws Exception {
        withImportHaltedAt("BEFORE_FLIP", StandbyImportIT::tableMadeBeforeTheImport, true, (source, a, pair, from) -> {

            ShardMap halted = pair.primaryMap();
            assertThat(halted.attached()).as("the source attached").hasSize(1);
            assertThat(halted.rules().get("items")).as("items still on the source")
                    .isEqualTo(new TableRule.Unsharded("items", a.shards()));
            readersBehindTheProxy(a);
            awaitCopied(pair);
            FailoverDuringMoveIT.killHost(pair, a);
            // A client of the source writes on after the primary is lost (the source is the database's truth).
            try (Connection c = source.connect("importer", "imp", "shop"); Statement s = c.createStatement()) {
                s.execute("INSERT INTO items VALUES (" + (ROWS + 1) + ", 'after the failover')");
            }

            String out = pair.promote();
            assertThat(out).contains("shard map: version " + halted.version()).contains("database shop refused");
            ShardMap installed = pair.standby.shardMaps().current();
            assertThat(installed.attached()).as("the source dropped").isEmpty();
            assertThat(installed.rules()).as("the import's rules dropped").doesNotContainKey("items");
            assertThat(installed.movingTables()).as("nothing frozen").isEmpty();
            assertThat(installed.refusedDatabases()).containsOnlyKeys("shop");
            for (int s = 0; s < a.shards(); s++) {
                try (Connection c = shard(pair.standby, s)) {
                    assertThat(single(c, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'shop'"
                            + " AND TABLE_TYPE = 'BASE TABLE'")).as("the copy set aside on shard %d", s).isEqualTo("0");
                    assertThat(single(c, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'cleave'"
                            + " AND TABLE_NAME = '" + LOOKUP + "'")).as("the key's lookup dropped on shard %d", s)
                            .isEqualTo("0");
                }
            }
            try (Connection c = shard(pair.standby, 0)) {
                assertThat(single(c, "SELECT COUNT(*) FROM cleave.unique_keys WHERE table_name = 'members'"))
                        .as("the global unique key the import registered before its flip removed").isEqualTo("0");
            }
            AdminClient b = AdminClient.connect(pair.standby.home()).orElseThrow();
            assertThat(b.status().refusedDatabases()).as("cleave status shows it").containsOnlyKeys("shop");
            assertThat(b.status().heldTables()).as("and its tables set aside").isEqualTo(Map.of("shop", List.of("items", "members")));
            assertReadersFail(pair);
            // A new shard could not be given the views and the function that read the tables set aside.
            AdminClient promoted = b;
            assertThatThrownBy(() -> promoted.startScale(a.shards() + 1)).as("adding a shard")
                    .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> {
                        assertThat(e.status()).as(e.getMessage()).isEqualTo(409);
                        assertThat(e.getMessage()).contains("shop refused");
                    });

            try (Connection c = pair.standbyProxy()) {
                assertThat(Long.parseLong(single(c, "SELECT COUNT(*) FROM accounts"))).as("the bank is served")
                        .isEqualTo(StandbyLayoutIT.SHAPE.rows());
                assertRefused(() -> c.createStatement().execute("USE shop"));
                assertRefused(() -> single(c, "SELECT COUNT(*) FROM shop.items"));
            }
            String loginToShop = "jdbc:mysql://" + pair.addresses.proxyListen() + "/shop"
                    + "?sslMode=DISABLED&allowPublicKeyRetrieval=true";
            assertRefused(() -> DriverManager.getConnection(loginToShop, "root", "").close());

            // The promoted home's daemon restarts: the refusal is in its state (the shard map), not in memory.
            pair.standby.close();
            pair.standby = new Daemon(DaemonOptions.standard(new CleaveHome(pair.seeded.home()), pair.seeded.config(),
                    System.getenv()).withProxy(CleaveProxyService.FACTORY));
            pair.standby.start();
            assertThat(pair.standby.shardMaps().current().refusedDatabases()).as("after a restart").containsOnlyKeys("shop");
            try (Connection c = pair.standbyProxy()) {
                assertRefused(() -> c.createStatement().execute("USE shop"));
            }
            assertReadersFail(pair);

            b = AdminClient.connect(pair.standby.home()).orElseThrow();
            // Imported again, the database would be copied under them: the readers are dropped first, made again after.
            AdminClient beforeDrop = b;
            assertThatThrownBy(() -> beforeDrop.startImport(from)).as("an import while they exist")
                    .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> {
                        assertThat(e.status()).as(e.getMessage()).isEqualTo(409);
                        assertThat(e.getMessage()).contains("view reports.items_seen").contains("reports.count_items")
                                .contains("reports.items_counted");
                    });
            try (Connection c = pair.standbyProxy()) {
                run(c, "DROP VIEW reports.items_seen");
                run(c, "DROP FUNCTION reports.items_counted");
                run(c, "DROP PROCEDURE reports.count_items");
            }
            ImportStatus again = b.startImport(from);
            assertThat(again.database()).isEqualTo("shop");
            awaitImported(b);
            assertThat(pair.standby.shardMaps().current().refusedDatabases()).as("served again").isEmpty();
            assertServesTheSource(pair, source, ROWS + 1);
            assertThat(b.status().heldTables()).as("nothing set aside any more").isEmpty();
            try (Connection c = pair.standbyProxy()) {
                run(c, "CREATE VIEW reports.items_seen AS SELECT id, name FROM shop.items");
                run(c, "CREATE FUNCTION reports.items_counted() RETURNS INT READS SQL DATA RETURN (SELECT COUNT(*) FROM"
                        + " shop.items)");
                run(c, "CREATE PROCEDURE reports.count_items() READS SQL DATA SELECT COUNT(*) FROM shop.items");
                assertThat(single(c, "SELECT COUNT(*) FROM reports.items_seen")).as("the view of another database")
                        .isEqualTo(String.valueOf(ROWS + 1));
                assertThat(single(c, "SELECT reports.items_counted()")).as("the function of another database")
                        .isEqualTo(String.valueOf(ROWS + 1));
                assertThat(single(c, "CALL reports.count_items()")).as("the procedure of another database")
                        .isEqualTo(String.valueOf(ROWS + 1));
            }
            for (int s = 0; s < a.shards(); s++) {
                try (Connection c = shard(pair.standby, s)) {
                    assertThat(create(c, "shop.items")).as("the table made before the import kept its definition")
                            .contains(MADE_BEFORE);
                }
            }
            try (Connection c = shard(pair.standby, 0)) {
                assertThat(single(c, "SELECT COUNT(*) FROM cleave.unique_keys WHERE table_name = 'members'"))
                        .as("the key registered again by the import from the promoted home").isEqualTo("1");
            }
            try (Connection c = pair.standbyProxy()) {
                assertThat(single(c, "SELECT COUNT(*) FROM shop.members")).isEqualTo(String.valueOf(MEMBERS));
                // Wherever id 1001 hashes, the key refuses m7@x (on another shard than id 7, only its lookup can).
                assertThatThrownBy(() -> run(c, "INSERT INTO shop.members VALUES (1001, 'm7@x')")).as("enforced across shards")
                        .hasMessageContaining("Duplicate entry");
                assertThat(single(c, "SELECT COUNT(*) FROM shop.members")).isEqualTo(String.valueOf(MEMBERS));
            }
        });
    }

    private static final String MADE_BEFORE = "made empty before the import";
    private static final String LOOKUP = io.cleave.router.unique.UniqueIndex.lookupName("shop", "members", "email");

    /**
     * Before the seed, through the primary's proxy: the database shop with its table made empty before the import (an
     * import takes such a table).
     */
    private static void tableMadeBeforeTheImport(Connection proxy) {
        run(proxy, "CREATE DATABASE shop");
        run(proxy, "CREATE TABLE shop.items (id INT NOT NULL PRIMARY KEY, name VARCHAR(40) NOT NULL) COMMENT='"
                + MADE_BEFORE + "'");
    }

    /**
     * While the import is halted, on each of the primary's shards directly (the proxy refuses them while the import
     * runs, and an import does not start while they exist): a view, a function and a procedure of another database
     * that read shop.items. Neither names shop in a client's statement, so refusing the name alone lets them through.
     */
    private static void readersBehindTheProxy(CleaveTestHome a) throws Exception {
        String secret = Files.readString(a.home().shardSecretFile()).trim();
        for (int s = 0; s < a.shards(); s++) {
            RunningDaemon.mariadbOnSocket(a.home().run().resolve(InstancePlan.nameOf(s) + ".sock"), ShardAccount.USER,
                    secret, "CREATE DATABASE reports;"
                    + " CREATE VIEW reports.items_seen AS SELECT id, name FROM shop.items;"
                    + " CREATE FUNCTION reports.items_counted() RETURNS INT READS SQL DATA RETURN (SELECT COUNT(*) FROM"
                    + " shop.items);"
                    + " CREATE PROCEDURE reports.count_items() READS SQL DATA SELECT COUNT(*) FROM shop.items");
        }
    }

    /**
     * The view, the function and the procedure of another database reading the refused database's tables fail at the server (its
     * tables are set aside): never rows, never an empty answer. Before, they read the emptied copy: no row, no error.
     */
    private static void assertReadersFail(StandbyLayoutIT.Pair pair) throws Exception {
        try (Connection c = pair.standbyProxy()) {
            assertThatThrownBy(() -> single(c, "SELECT COUNT(*) FROM reports.items_seen")).as("the view")
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).as(e.getMessage())
                            .isEqualTo(1356));
            assertThatThrownBy(() -> single(c, "SELECT reports.items_counted()")).as("the function")
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).as(e.getMessage())
                            .isEqualTo(1146));
            assertThatThrownBy(() -> single(c, "CALL reports.count_items()")).as("the procedure")
                    .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).as(e.getMessage())
                            .isEqualTo(1146));
        }
    }

    private static String create(Connection c, String table) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SHOW CREATE TABLE " + table)) {
            rs.next();
            return rs.getString(2);
        }
    }

    @Test
    void aStandbyPromotedAfterAnImportsCutoverServesTheImportedDatabaseFromItsShards() throws Exception {
        withImportHaltedAt("AFTER_FLIP", (source, a, pair, from) -> {

            ShardMap flipped = pair.primaryMap();
            assertThat(flipped.attached()).as("the source still attached").hasSize(1);
            assertThat(flipped.rules().get("items")).as("items placed on the shards by the cutover")
                    .isEqualTo(new TableRule.Unsharded("items", 0));
            // Semi-sync on: the flip's version and every row before it were acknowledged; nothing to wait for.
            FailoverDuringMoveIT.killHost(pair, a);

            String out = pair.promote();
            assertThat(out).contains("shard map: version " + flipped.version());
            assertThat(pair.standby.shardMaps().current().attached()).as("the source dropped").isEmpty();
            assertThat(pair.standby.shardMaps().current().refusedDatabases()).isEmpty();
            // The import's move, cut short after its flip, is settled by the installed rules (nothing left frozen).
            long moveId = flipped.movingTables().get("items");
            MoveRecord settled = AdminClient.connect(pair.standby.home()).orElseThrow().move(moveId);
            assertThat(settled.origin).isEqualTo("leftover");
            assertThat(settled.phase).as(settled.message).isEqualTo(MovePhase.DONE);
            assertThat(pair.standby.shardMaps().current().movingTables()).as("no table frozen").isEmpty();
            assertServesTheSource(pair, source, ROWS);
        });
    }

    /**
     * Opt-in ({@code -Dstandby.import.all=true}): the import cut short earlier (catching up after its copy), and the
     * refused database dropped through the promoted proxy instead of imported again: the name is served again.
     */
    @Test
    void aRefusedDatabaseDroppedThroughThePromotedProxyIsServedAgain() throws Exception {
        assumeTrue(ALL, "-Dstandby.import.all=true runs the drop of a refused database");
        withImportHaltedAt("CATCHING_UP", (source, a, pair, from) -> {
            FailoverDuringMoveIT.killHost(pair, a);
            assertThat(pair.promote()).contains("database shop refused");
            try (Connection c = pair.standbyProxy()) {
                assertRefused(() -> c.createStatement().execute("USE shop"));
                run(c, "DROP DATABASE shop");
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
                while (!pair.standby.shardMaps().current().refusedDatabases().isEmpty()) {
                    assertThat(System.nanoTime()).as("the refusal lifted after the drop").isLessThan(deadline);
                    Thread.sleep(50);
                }
                assertThatThrownBy(() -> c.createStatement().execute("USE shop")).as("gone, not refused")
                        .isInstanceOfSatisfying(SQLException.class, e -> assertThat(e.getErrorCode()).isEqualTo(1049));
                run(c, "CREATE DATABASE shop");
                run(c, "USE shop");
            }
            assertThat(AdminClient.connect(pair.standby.home()).orElseThrow().status().refusedDatabases()).isEmpty();
            for (int s = 0; s < a.shards(); s++) {
                try (Connection c = shard(pair.standby, s)) {
                    assertThat(single(c, "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_SCHEMA = 'cleave'"
                            + " AND TABLE_NAME REGEXP '^held_[0-9a-f]{24}$'")).as("its tables set aside dropped on shard %d",
                            s).isEqualTo("0");
                    assertThat(single(c, "SELECT COUNT(*) FROM cleave.held_tables")).as("and forgotten").isEqualTo("0");
                }
            }
        });
    }

    /**
     * Opt-in ({@code -Dstandby.import.all=true}): an import that failed (its move cancelled) leaves its source attached
     * and serving; a switchover is refused then, naming the source and what to do, before anything is held.
     */
    @Test
    void aSwitchoverIsRefusedWhileAFailedImportsSourceStaysAttached() throws Exception {
        assumeTrue(ALL, "-Dstandby.import.all=true runs the switchover after a failed import");
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-standby-import-", StandbyLayoutIT.SEARCHABLE);
        StandbyLayoutIT.Pair pair = null;
        try (StandaloneServer source = StandaloneServer.start(List.of());
             CleaveTestHome a = CleaveTestHome.builder().shards(2).extraYaml(StandbyIT.SHARDING).create()) {
            String from = createSource(source, false);
            Path go = work.resolve("go");
            pair = StandbyLayoutIT.Pair.start(a, work, c -> { }, "-Dcleave.test.movePauseAt=CATCHING_UP",
                    "-Dcleave.test.movePauseGate=" + go);
            pair.seed();
            CleaveJar.Result started = CleaveJar.run(a, "import", "--from", from);
            assertThat(started.code()).as(started.out()).isZero();
            long move = awaitMove(pair);
            pair.primary.cancelMove(move);
            Files.createFile(go);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            ImportStatus s = pair.primary.importStatus();
            while (!s.state().equals("failed")) {
                assertThat(System.nanoTime()).as("the import fails once its move is cancelled: " + s).isLessThan(deadline);
                Thread.sleep(100);
                s = pair.primary.importStatus();
            }
            assertThat(pair.primaryMap().attached()).as("the failed import's source stays attached").hasSize(1);

            StandbyLayoutIT.Pair p = pair;
            assertThatThrownBy(() -> p.primary.switchover(io.cleave.manager.standby.SwitchoverRequest.known()))
                    .isInstanceOfSatisfying(AdminClient.DaemonAnswer.class, e -> assertThat(e.status()).isEqualTo(409))
                    .hasMessageContaining("a server is attached for an import (mysql://importer@127.0.0.1:" + source.port()
                            + "/shop, its import failed").hasMessageContaining("import from it again");
            try (Connection c = pair.standbyProxy()) {
                // The standby's port still relays to the primary's proxy, which serves the database from the source.
                run(c, "USE shop");
                assertThat(rows(c)).as("the source still serves through the primary").hasSize(ROWS);
            }
        } finally {
            if (pair != null) {
                pair.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /** The id of the primary's import's move, once the map freezes its tables for it. */
    private static long awaitMove(StandbyLayoutIT.Pair pair) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (pair.primaryMap().movingTables().get("items") == null
                || pair.primary.importStatus().state().equals("creating schema")) {
            assertThat(System.nanoTime()).as("the import's move starts").isLessThan(deadline);
            Thread.sleep(100);
        }
        long move = pair.primaryMap().movingTables().get("items");
        while (true) {
            try {
                pair.primary.move(move);
                return move;
            } catch (AdminClient.DaemonAnswer notYet) {
                assertThat(System.nanoTime()).as("move " + move + " journaled").isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    private static final boolean ALL = Boolean.getBoolean("standby.import.all");

    private interface Case {
        void run(StandaloneServer source, CleaveTestHome a, StandbyLayoutIT.Pair pair, String from) throws Exception;
    }

    /** Runs {@code test} on a pair whose primary's import of a source's database shop waits at {@code point}. */
    private static void withImportHaltedAt(String point, Case test) throws Exception {
        withImportHaltedAt(point, c -> { }, false, test);
    }

    /**
     * As above, with {@code setup} run through the primary's proxy before the standby is seeded; {@code members}: the
     * source also has {@link #MEMBERS}, which the rules shard, so the import registers its global unique key.
     */
    private static void withImportHaltedAt(String point, StandbyLayoutIT.Pair.Setup setup, boolean members, Case test)
            throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-standby-import-", StandbyLayoutIT.SEARCHABLE);
        StandbyLayoutIT.Pair pair = null;
        try (StandaloneServer source = StandaloneServer.start(List.of());
             CleaveTestHome a = CleaveTestHome.builder().shards(2).extraYaml(members ? WITH_MEMBERS : StandbyIT.SHARDING)
                     .create()) {
            String from = createSource(source, members);
            pair = importHalted(a, work, from, point, setup);
            test.run(source, a, pair, from);
        } finally {
            if (pair != null) {
                pair.close();
            }
            CleaveTestHome.deleteTree(work);
        }
    }

    /** The source's database shop with {@link #ROWS} items and the import's account; the URL to import it from. */
    private static String createSource(StandaloneServer source, boolean members) throws Exception {
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
            if (members) {
                s.execute("CREATE TABLE members (id INT NOT NULL PRIMARY KEY, email VARCHAR(64) NOT NULL, UNIQUE KEY"
                        + " email (email))");
                StringBuilder each = new StringBuilder();
                for (int i = 1; i <= MEMBERS; i++) {
                    each.append(i == 1 ? "" : ",").append('(').append(i).append(",'m").append(i).append("@x')");
                }
                s.execute("INSERT INTO members VALUES " + each);
            }
        }
        return "mysql://importer:imp@127.0.0.1:" + source.port() + "/shop";
    }

    /** The pair, semi-sync on, with the primary's import of {@code from} waiting at {@code point} of its cutover. */
    private static StandbyLayoutIT.Pair importHalted(CleaveTestHome a, Path work, String from, String point,
                                                     StandbyLayoutIT.Pair.Setup setup) throws Exception {
        StandbyLayoutIT.Pair pair = StandbyLayoutIT.Pair.start(a, work, setup, "-Dcleave.test.moveHaltAt=" + point,
                "-Dcleave.test.moveHaltGate=" + work.resolve("never"));
        try {
            pair.seed();
            CleaveJar.Result started = CleaveJar.run(a, "import", "--from", from);
            assertThat(started.code()).as("an import with a standby counted on: " + started.out()).isZero();
            FailoverDuringMoveIT.awaitLogged(pair.log, " waits at " + point);
            return pair;
        } catch (Exception | AssertionError e) {
            pair.close();
            throw e;
        }
    }

    /**
     * Until the standby's default shard applied the import's whole copy (semi-sync acknowledged it; applying may
     * lag), so that the promotion has a copy to delete.
     */
    private static void awaitCopied(StandbyLayoutIT.Pair pair) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        try (Connection b = shard(pair.standby, 0)) {
            while (!single(b, "SELECT COUNT(*) FROM shop.items").equals(String.valueOf(ROWS))) {
                assertThat(System.nanoTime()).as("the standby applies the import's copy").isLessThan(deadline);
                Thread.sleep(100);
            }
        }
    }

    private static void awaitImported(AdminClient b) throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(120);
        ImportStatus s = b.importStatus();
        while (!s.state().equals("done")) {
            assertThat(s.state()).as(String.valueOf(s.message())).isNotEqualTo("failed");
            assertThat(System.nanoTime()).as("the import from the promoted home ends: " + s).isLessThan(deadline);
            Thread.sleep(200);
            s = b.importStatus();
        }
    }

    private interface Call {
        void run() throws Exception;
    }

    /** Refused as a database the account may not use, saying why and what to do. */
    private static void assertRefused(Call call) {
        assertThatThrownBy(call::run).isInstanceOfSatisfying(SQLException.class, e -> {
            assertThat(e.getErrorCode()).as(e.getMessage()).isEqualTo(1044);
            assertThat(e.getSQLState()).isEqualTo("42000");
            assertThat(e.getMessage()).contains("database 'shop'").contains("cut short by a failover")
                    .contains("the source still holds the database").contains("cleave import");
        });
    }

    /** The promoted proxy answers every one of the source's {@code count} items as the source holds them. */
    private static void assertServesTheSource(StandbyLayoutIT.Pair pair, StandaloneServer source, int count)
            throws Exception {
        List<String> expected = rows(source.connect("importer", "imp", "shop"));
        assertThat(expected).hasSize(count);
        try (Connection c = pair.standbyProxy()) {
            run(c, "USE shop");
            assertThat(rows(c)).as("every row of the source through the promoted proxy").isEqualTo(expected);
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
