package io.cleave.e2e.online;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.SbLoad;
import io.cleave.e2e.support.StandaloneServer;
import io.cleave.manager.imports.ImportStatus;
import io.cleave.manager.move.MoveHooks;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cleave import} of a standalone mariadbd holding a sysbench-like database into four
 * hashed shards, while clients write through the proxy the whole time: the source is fronted at
 * once, its problems (when it has any) are named before anything changes, every table's rows move
 * by the sharding rules with one held cutover, and the source is let go untouched: no client
 * error, the proxy answers what the shards hold, rows on every shard, no write reaches the source
 * afterwards, its password nowhere but in the 0600 state file while it is attached.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ImportIT {

    static final String SHARDING = """
            sharding:
              keyspaces:
                - { name: sb, function: hash, buckets: 64, key_type: integer }
              tables:
                - { name: sbtest1, keyspace: sb, column: id }
                - { name: sbtest2, keyspace: sb, column: id }
                - { name: sbtest3, keyspace: sb, column: id }
                - { name: item, type: reference }
            """;
    static final int TABLES = 3;
    static final int ROWS = 2000;
    static final String PASSWORD = "s3cr@t:pa/ss";
    static final String URL_PASSWORD = "s3cr%40t%3Apa%2Fss";

    private StandaloneServer source;
    private CleaveTestHome home;
    private RunningDaemon daemon;

    @BeforeAll
    void start() throws Exception {
        // MySQL tells no snapshot's binlog position: verification then snapshots under a brief
        // FLUSH TABLES WITH READ LOCK. This import takes that way, on MariaDB, so it is proved too.
        System.setProperty("cleave.move.snapshot_lock", "true");
        source = StandaloneServer.start(List.of());
        prepareSource(source);
        home = CleaveTestHome.builder().shards(4).bufferPoolPerShardMiB(32).extraYaml(SHARDING).create();
        daemon = home.start();
    }

    /** shop: sbtest1..3 (sharded by the config), item (reference), settings (its home shard), a view, a function. */
    static void prepareSource(StandaloneServer source) throws Exception {
        source.root("CREATE DATABASE shop; CREATE DATABASE bad;"
                + " CREATE USER app@'%' IDENTIFIED BY 'app'; GRANT ALL ON *.* TO app@'%';"
                + " CREATE USER importer@'%' IDENTIFIED BY '" + PASSWORD + "';"
                + " GRANT SELECT, INSERT, UPDATE, DELETE, SHOW VIEW, TRIGGER, RELOAD, REPLICATION CLIENT, REPLICATION SLAVE ON *.* TO importer@'%'");
        try (Connection c = source.connect("app", "app", "shop"); Statement s = c.createStatement()) {
            SbLoad.prepare(c, TABLES, ROWS);
            s.execute("CREATE TABLE item (i_id INT PRIMARY KEY, name VARCHAR(40))");
            s.execute("INSERT INTO item VALUES (1, 'one'), (2, 'two'), (3, 'three')");
            s.execute("CREATE TABLE settings (name VARCHAR(40) PRIMARY KEY, value VARCHAR(40))");
            s.execute("INSERT INTO settings VALUES ('color', 'blue'), ('size', 'large')");
            s.execute("CREATE VIEW colors AS SELECT value FROM settings WHERE name = 'color'");
            s.execute("CREATE FUNCTION twice(x INT) RETURNS INT DETERMINISTIC RETURN x * 2");
            s.execute("CREATE TABLE bad.nokey (a INT, b INT)");
            s.execute("CREATE TABLE bad.sbtest1 (id INT PRIMARY KEY, email VARCHAR(40), UNIQUE KEY by_email (email(10)))");
            s.execute("CREATE TABLE bad.events (id INT PRIMARY KEY, n INT)");
            s.execute("CREATE TRIGGER bad.count_events BEFORE INSERT ON bad.events FOR EACH ROW SET NEW.n = 1");
        }
    }

    String url(String database) {
        return "mysql://importer:" + URL_PASSWORD + "@127.0.0.1:" + source.port() + "/" + database;
    }

    @AfterAll
    void stop() {
        System.clearProperty("cleave.move.snapshot_lock");
        if (daemon != null) {
            daemon.close();
        }
        if (home != null) {
            home.close();
        }
        if (source != null) {
            source.close();
        }
    }

    @Test
    @Order(1)
    void whatCannotBeImportedIsNamedBeforeAnythingChanges() throws Exception {
        CleaveJar.Result bad = CleaveJar.run(home, "import", "--from", url("bad"));
        assertThat(bad.code()).as(bad.out()).isEqualTo(2);
        assertThat(bad.out()).contains("nothing was changed")
                .contains("table bad.nokey has no primary key")
                .contains("the unique key by_email [email] of bad.sbtest1 indexes a prefix of a column and leaves out id")
                .contains("has trigger count_events")
                .doesNotContain(PASSWORD).doesNotContain(URL_PASSWORD);
        source.root("SET GLOBAL binlog_format = 'MIXED'");
        try {
            CleaveJar.Result mixed = CleaveJar.run(home, "import", "--from", url("shop"));
            assertThat(mixed.code()).as(mixed.out()).isEqualTo(2);
            assertThat(mixed.out()).contains("binlog_format is MIXED: SET GLOBAL binlog_format = 'ROW'");
        } finally {
            source.root("SET GLOBAL binlog_format = 'ROW'");
        }
        CleaveJar.Result wrong = CleaveJar.run(home, "import", "--from", "mysql://importer@127.0.0.1:" + source.port());
        assertThat(wrong.code()).isEqualTo(2);
        assertThat(wrong.out()).contains("mysql://USER:PASSWORD@HOST:PORT/DATABASE");
        ShardMap map = daemon.daemon().shardMaps().current();
        assertThat(map.attached()).isEmpty();
        assertThat(map.rules()).isEmpty();
        assertThat(Files.exists(home.home().state().resolve("import-source"))).isFalse();
    }

    /**
     * A view and a function of another database on the shards that read the database to import would run on a shard
     * until the cutover, reading its partial copy: the import is refused (409, exit 7) naming them, nothing attached.
     * Before, the import started. The database's settings table is made empty on the shards first (an import takes it).
     */
    @Test
    @Order(2)
    void readersOfTheDatabaseInAnotherDatabaseRefuseTheImport() throws Exception {
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE shop");
            s.execute("CREATE TABLE shop.settings (name VARCHAR(40) PRIMARY KEY, value VARCHAR(40))");
            s.execute("CREATE DATABASE reports");
            s.execute("CREATE VIEW reports.colors_seen AS SELECT value FROM `shop`.`settings` WHERE name = 'color'");
            s.execute("CREATE FUNCTION reports.settings_counted() RETURNS INT READS SQL DATA RETURN (SELECT COUNT(*)"
                    + " FROM Shop.settings)");
            s.execute("CREATE FUNCTION reports.unrelated() RETURNS INT DETERMINISTIC RETURN 1");
        }
        CleaveJar.Result refused = CleaveJar.run(home, "import", "--from", url("shop"));
        assertThat(refused.code()).as(refused.out()).isEqualTo(7);
        assertThat(refused.out()).contains("nothing was changed")
                .contains("view reports.colors_seen, function reports.settings_counted of another database on the shards"
                        + " name shop").contains("Drop them, import, and create them again after the cutover")
                .doesNotContain("unrelated").doesNotContain(PASSWORD);
        assertThat(daemon.daemon().shardMaps().current().attached()).isEmpty();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("DROP VIEW reports.colors_seen");
            s.execute("DROP FUNCTION reports.settings_counted");
        }
    }

    @Test
    @Order(3)
    void theDatabaseMovesToTheShardsUnderWritesWithoutAClientError() throws Exception {
        long flushes = flushes();
        AtomicReference<Object> duringImport = new AtomicReference<>();
        daemon.daemon().moves().testHooks((point, id) -> {
            if (point == MoveHooks.Point.CATCHING_UP && duringImport.get() == null) {
                duringImport.set(readersMadeDuringTheImport());
            }
        });
        CleaveJar.Result started = CleaveJar.run(home, "import", "--from", url("shop"));
        assertThat(started.code()).as(started.out()).isZero();
        assertThat(started.out()).doesNotContain(PASSWORD).doesNotContain(URL_PASSWORD);
        try (SbLoad load = new SbLoad(SbLoad.proxy(daemon.proxyPort(), "shop"), 4, TABLES, ROWS)) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.home().state()
                    .resolve("import-source")))).isEqualTo("rw-------");
            ImportStatus done = awaitImport(load);
            assertThat(done.state()).as(done.message()).isEqualTo("done");
            load.awaitTransactions(30, Duration.ofMinutes(1));
            load.stopAndCheck();
            assertThat(done.pauseMillis()).isGreaterThan(0);
            assertThat(flushes()).as("verification snapshots were taken under FLUSH TABLES WITH READ LOCK").isGreaterThan(flushes);
            assertThat(done.tables()).allSatisfy(t -> assertThat(t.state()).isEqualTo("done"));
        } finally {
            daemon.daemon().moves().testHooks(MoveHooks.NONE);
        }
        assertThat(duringImport.get()).as("readers made while the import caught up (before its cutover)")
                .isInstanceOfSatisfying(List.class, refusals -> assertThat(refusals).hasSize(2).allSatisfy(e -> {
                    SQLException refusal = (SQLException) e;
                    assertThat(refusal.getErrorCode()).as(refusal.getMessage()).isEqualTo(1235);
                    assertThat(refusal.getSQLState()).isEqualTo("42000");
                    assertThat(refusal.getMessage()).contains("the import of shop from mysql://importer@127.0.0.1:"
                            + source.port() + "/shop is under way").contains("names shop")
                            .contains("Create it after the cutover");
                }));
        ShardMap map = daemon.daemon().shardMaps().current();
        assertThat(map.attached()).isEmpty();
        assertThat(map.rules().get("sbtest2")).isEqualTo(new TableRule.Sharded("sbtest2", "sb", "id"));
        assertThat(map.rules().get("item")).isEqualTo(new TableRule.Reference("item"));
        assertThat(map.rules().get("settings")).isEqualTo(new TableRule.Unsharded("settings", 0));
        assertThat(map.movingTables()).isEmpty();
        for (int t = 1; t <= TABLES; t++) {
            String table = "sbtest" + t;
            long rows = 0;
            long sum = 0;
            for (int shard = 0; shard < 4; shard++) {
                long[] here = countAndSum(daemon.connect(shard), "shop." + table);
                assertThat(here[0]).as("rows of %s on shard %d", table, shard).isGreaterThan(ROWS / 10L);
                rows += here[0];
                sum += here[1];
            }
            assertThat(rows).isEqualTo(ROWS);
            assertThat(countAndSum(daemon.connectProxy("shop", ""), table)).as("the proxy answers what the shards hold")
                    .containsExactly(rows, sum);
        }
        for (int shard = 0; shard < 4; shard++) {
            try (Connection c = daemon.connect(shard); Statement s = c.createStatement();
                 ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM shop.item")) {
                rs.next();
                assertThat(rs.getLong(1)).as("item on shard %d", shard).isEqualTo(3);
            }
        }
        try (Connection c = daemon.connectProxy("shop", ""); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("SELECT * FROM colors")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("blue");
            }
            try (ResultSet rs = s.executeQuery("SELECT twice(k), k FROM sbtest1 WHERE id = 7")) {
                rs.next();
                assertThat(rs.getInt(1)).isEqualTo(2 * rs.getInt(2));
            }
            // After the cutover the readers refused before are made, and read the imported rows.
            s.execute("CREATE VIEW reports.colors_seen AS SELECT value FROM shop.settings WHERE name = 'color'");
            s.execute("CREATE PROCEDURE reports.count_settings() READS SQL DATA SELECT COUNT(*) FROM shop.settings");
            try (ResultSet rs = s.executeQuery("SELECT * FROM reports.colors_seen")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getString(1)).isEqualTo("blue");
            }
            try (ResultSet rs = s.executeQuery("CALL reports.count_settings()")) {
                assertThat(rs.next()).isTrue();
                assertThat(rs.getLong(1)).isEqualTo(2);
            }
        }
    }

    /**
     * Through the proxy while the import catches up (its source attached): a view and a procedure of another database
     * that name shop; the errors they got, or what went wrong. Before, the procedure was created (and the view refused
     * only as any view over a table homed elsewhere).
     */
    private Object readersMadeDuringTheImport() {
        List<SQLException> refusals = new java.util.ArrayList<>();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            for (String sql : List.of("CREATE VIEW reports.colors_seen AS SELECT value FROM shop.settings",
                    "CREATE PROCEDURE reports.count_settings() READS SQL DATA SELECT COUNT(*) FROM shop.settings")) {
                try {
                    s.execute(sql);
                    return "created: " + sql;
                } catch (SQLException e) {
                    refusals.add(e);
                }
            }
        } catch (SQLException e) {
            return e.toString();
        }
        return refusals;
    }

    @Test
    @Order(4)
    void theSourceIsLeftAsItWasAndTakesNoMoreWrites() throws Exception {
        String end = source.binlogEnd();
        try (SbLoad load = new SbLoad(SbLoad.proxy(daemon.proxyPort(), "shop"), 2, TABLES, ROWS)) {
            load.awaitTransactions(50, Duration.ofMinutes(1));
            load.stopAndCheck();
        }
        assertThat(source.binlogEnd()).as("nothing was written to the source after the import").isEqualTo(end);
        assertThat(source.root("SELECT COUNT(*) FROM shop.sbtest1")).isEqualTo(String.valueOf(ROWS));
        assertThat(source.root("SHOW DATABASES")).doesNotContain("cleave");
        assertThat(source.root("SELECT COUNT(*) FROM information_schema.ROUTINES WHERE ROUTINE_SCHEMA = 'shop'"))
                .isEqualTo("1");
        CleaveJar.Result status = CleaveJar.run(home, "import", "--status", "--json");
        assertThat(status.code()).as(status.out()).isZero();
        assertThat(status.out()).contains("\"state\" : \"done\"").contains("mysql://importer@127.0.0.1:" + source.port() + "/shop")
                .doesNotContain(PASSWORD).doesNotContain(URL_PASSWORD);
        CleaveJar.Result plain = CleaveJar.run(home, "import", "--status");
        assertThat(plain.out()).contains("sbtest1").contains("sharded on sb by id").contains("reference");
        assertThat(Files.exists(home.home().state().resolve("import-source"))).as("the password is gone").isFalse();
        for (String file : List.of("import.json", "shard-map.json")) {
            assertThat(Files.readString(home.home().state().resolve(file))).doesNotContain(PASSWORD).doesNotContain(URL_PASSWORD);
        }
        String metrics = daemon.admin("GET", "/metrics", false).body();
        assertThat(metrics).contains("cleave_import_state{state=\"done\"} 1.0")
                .contains("cleave_import_rows{kind=\"copied\",table=\"shop.sbtest1\"} " + ROWS + ".0");
    }

    private ImportStatus awaitImport(SbLoad load) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        ImportStatus s = daemon.daemon().imports().status();
        while (!s.state().equals("done") && !s.state().equals("failed")) {
            load.assertNoErrors();
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the import did not end within 3 minutes: " + s);
            }
            Thread.sleep(100);
            s = daemon.daemon().imports().status();
        }
        return s;
    }

    private long flushes() throws Exception {
        return Long.parseLong(source.root("SHOW GLOBAL STATUS LIKE 'Com_flush'").split("\t")[1]);
    }

    static long[] countAndSum(Connection c, String table) throws SQLException {
        try (c; Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*),"
                + " SUM(CRC32(CONCAT_WS('#', id, k, c, pad))) FROM " + table)) {
            rs.next();
            return new long[] {rs.getLong(1), rs.getLong(2)};
        }
    }
}
