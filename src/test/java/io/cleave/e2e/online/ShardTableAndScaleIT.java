package io.cleave.e2e.online;

import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.SbLoad;
import io.cleave.manager.move.MoveKind;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.move.MoveRefused;
import io.cleave.manager.move.MoveService;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.manager.supervisor.InstanceStatus;
import io.cleave.router.topology.TableRule;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static io.cleave.e2e.moves.MoveChecks.proxyCount;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * One daemon with three shards, the sysbench-like load running through the proxy during every
 * change: {@code cleave shard-table} shards a populated table that lives on shard 0 (its rows
 * spread over every shard, the rule kept in the state) and makes another a reference table; what
 * cannot work is refused with nothing moved. Then {@code cleave scale} takes the home to four
 * shards (a new instance, every buffer pool resized online, the reference table copied, buckets
 * spread) and to two (everything off shards 2-3, which stop; a table homed on shard 2 moves too;
 * the pools grow). No client error, rows on every shard, totals unchanged, each shard's
 * {@code @@innodb_buffer_pool_size} its share. A restarted daemon runs the state's two shards and
 * says why; {@code --purge} deletes what the stopped shards left.
 *
 * <p>The load runs as an application account with SELECT, INSERT, UPDATE and DELETE on its database
 * only: a new shard holds the accounts (and their grants) before clients reach it.
 *
 * <p>{@code -Dscale.long=true} runs the same with four shards going to six and then three (two new
 * instances at once, three stopping).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class ShardTableAndScaleIT {

    private static final boolean LONG = Boolean.getBoolean("scale.long");
    /**
     * The shards the home starts with, scales up to, then down to. The restarted daemon says why it
     * runs another count than the config's only when there is one: the end differs from the start.
     */
    private static final int START = LONG ? 4 : 3;
    private static final int UP = LONG ? 6 : 4;
    private static final int DOWN = LONG ? 3 : 2;
    /** settings lives on the first shard the scale down stops. */
    private static final String SHARDING = """
            sharding:
              keyspaces:
                - { name: sb, function: hash, buckets: 16, key_type: integer }
              tables:
                - { name: sbtest1, keyspace: sb, column: id }
                - { name: settings, type: unsharded, shard: %d }
            """.formatted(DOWN);
    private static final int TABLES = 2;
    private static final int ROWS = 2000;
    private static final long MIB = 1024 * 1024;
    /**
     * 192M in all, split evenly: 64M on each of 3 shards, 48M on 4, 96M on 2; 32M on 6. A pool of
     * 64M or less at the start has chunks of 1M, so every share is a whole number of chunks.
     */
    private static final int POOL_MIB = 192;

    private CleaveTestHome home;
    private RunningDaemon daemon;

    @BeforeAll
    void start() throws Exception {
        home = CleaveTestHome.builder().shards(START).portRange(UP).bufferPoolPerShardMiB(POOL_MIB / START)
                .extraYaml(SHARDING).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE sb");
            s.execute("USE sb");
            SbLoad.prepare(c, TABLES, ROWS);
            s.execute("CREATE TABLE item (i_id INT PRIMARY KEY, name VARCHAR(40))");
            s.execute("INSERT INTO item VALUES (1, 'one'), (2, 'two'), (3, 'three')");
            s.execute("CREATE TABLE settings (name VARCHAR(40) PRIMARY KEY, value VARCHAR(40))");
            s.execute("INSERT INTO settings VALUES ('color', 'blue'), ('size', 'large')");
            s.execute("CREATE TABLE log (id INT PRIMARY KEY, msg VARCHAR(40), UNIQUE KEY (msg(10)))");
            s.execute("CREATE USER 'sbapp'@'%' IDENTIFIED BY 'sbpw'");
            s.execute("GRANT SELECT, INSERT, UPDATE, DELETE ON sb.* TO 'sbapp'@'%'");
        }
    }

    @AfterAll
    void stop() {
        if (daemon != null) {
            daemon.close();
        }
        if (home != null) {
            home.close();
        }
    }

    @Test
    @Order(1)
    void aPopulatedTableIsShardedUnderWritesWithoutAClientError() throws Exception {
        assertThat(count(0, "SELECT COUNT(*) FROM sb.sbtest2")).as("on its home before").isEqualTo(ROWS);
        underLoad(() -> {
            CleaveJar.Result r = CleaveJar.run(home, "shard-table", "sb.sbtest2", "--keyspace", "sb", "--column", "id",
                    "--wait");
            assertThat(r.code()).as(r.out()).isZero();
            assertThat(r.out()).contains("sharded on sb by id").contains("done");
        });
        MoveRecord move = daemon.daemon().moves().list().stream().filter(m -> m.kind == MoveKind.TABLES).findFirst()
                .orElseThrow();
        assertThat(move.phase).isEqualTo(MovePhase.DONE);
        assertThat(move.pauseMillis).isGreaterThan(0);
        for (int shard = 0; shard < START; shard++) {
            // About ROWS / START each: between 0.4 and 2 times that.
            assertThat(count(shard, "SELECT COUNT(*) FROM sb.sbtest2")).as("rows of sbtest2 on shard %d", shard)
                    .isBetween(2L * ROWS / (5L * START), 2L * ROWS / START);
        }
        assertTotals(START);
        try (Connection c = daemon.connectProxy("sb", "")) {
            assertThat(proxyCount(c, "SELECT COUNT(*) FROM sbtest2 WHERE id = 77")).isEqualTo(1);
        }
        assertThat(daemon.daemon().shardMaps().current().rules().get("sbtest2"))
                .isEqualTo(new TableRule.Sharded("sbtest2", "sb", "id"));
        assertThat(Files.readString(home.home().shardMapFile())).as("the rule outlives the config")
                .contains("\"table\":\"sbtest2\",\"rule\":\"sharded\",\"keyspace\":\"sb\",\"column\":\"id\"");
        assertThat(daemon.daemon().shardMaps().current().ghosts()).isEmpty();
        assertThat(daemon.daemon().shardMaps().current().movingTables()).isEmpty();
    }

    @Test
    @Order(2)
    void aTableBecomesAReferenceTableOnEveryShard() throws Exception {
        CleaveJar.Result r = CleaveJar.run(home, "shard-table", "sb.item", "--reference", "--wait");
        assertThat(r.code()).as(r.out()).isZero();
        try (Connection c = daemon.connectProxy("sb", ""); Statement s = c.createStatement()) {
            s.execute("INSERT INTO item VALUES (4, 'four')");
            // A join of the reference table with the sharded one stays on each shard.
            assertThat(proxyCount(c, "SELECT COUNT(*) FROM sbtest2 t JOIN item i ON i.i_id = t.id % 4 + 1")).isEqualTo(ROWS);
        }
        for (int shard = 0; shard < START; shard++) {
            assertThat(count(shard, "SELECT COUNT(*) FROM sb.item")).as("item on shard %d", shard).isEqualTo(4);
        }
    }

    @Test
    @Order(3)
    void whatCannotBeShardedIsRefusedWithNothingMoved() throws Exception {
        CleaveJar.Result unique = CleaveJar.run(home, "shard-table", "sb.log", "--keyspace", "sb", "--column", "id");
        assertThat(unique.code()).as(unique.out()).isEqualTo(2);
        assertThat(unique.out()).contains("unique key msg [msg] of sb.log indexes a prefix of a column and leaves out id");
        CleaveJar.Result again = CleaveJar.run(home, "shard-table", "sb.sbtest1", "--reference");
        assertThat(again.code()).isEqualTo(2);
        assertThat(again.out()).contains("sbtest1 is sharded on sb by id already");
        assertThat(CleaveJar.run(home, "shard-table", "sb.log", "--keyspace", "nope", "--column", "id").out())
                .contains("unknown keyspace 'nope'");
        assertThat(CleaveJar.run(home, "shard-table", "sb.none", "--unsharded", "1").code()).isEqualTo(8);
        CleaveJar.Result usage = CleaveJar.run(home, "shard-table", "sb.log", "--reference", "--unsharded", "1");
        assertThat(usage.code()).isEqualTo(2);
        assertThat(usage.out()).contains("give one rule");
        assertThat(daemon.daemon().moves().list()).as("no move was planned").hasSize(2);
    }

    /**
     * A key move planned while a table is still being given a rule on the same keyspace (queued
     * behind that table's move) must carry that table's rows of the moving keys too: it runs after
     * the table joined the keyspace. It carried only the tables the keyspace had when it was planned,
     * and left the new table's rows behind, where no read by key finds them (the chaos soak, seed
     * 8016925408805, found kv_u2's rows of two moved buckets on the old shard).
     */
    @Test
    @Order(4)
    void aKeyMoveQueuedBehindATableJoiningItsKeyspaceTakesThatTablesRowsToo() throws Exception {
        int rows = 300;
        try (Connection c = daemon.connectProxy("sb", ""); Statement s = c.createStatement()) {
            s.execute("CREATE TABLE late (id INT PRIMARY KEY, v INT)");
            StringBuilder insert = new StringBuilder("INSERT INTO late VALUES ");
            for (int id = 1; id <= rows; id++) {
                insert.append(id == 1 ? "" : ",").append('(').append(id).append(',').append(id).append(')');
            }
            s.execute(insert.toString());
        }
        MoveService moves = daemon.daemon().moves();
        MoveRecord table = moves.shardTable("sb.late", new TableRule.Sharded("late", "sb", "id"));
        int[] owners = daemon.daemon().shardMaps().current().buckets("sb");
        int last = 0;
        while (last < 3 && owners[last + 1] == owners[0]) {
            last++;
        }
        MoveRecord keys = moves.start("sb", "bucket:0-" + last, (owners[0] + 1) % START, "cli");
        assertThat(keys.tables).extracting(t -> t.table).doesNotContain("late");
        for (MoveRecord m : List.of(table, keys)) {
            assertThat(moves.awaitEnd(m.id, () -> false).phase).as("move %d", m.id).isEqualTo(MovePhase.DONE);
        }
        try (Connection c = daemon.connectProxy("sb", "")) {
            for (int id = 1; id <= rows; id++) {
                assertThat(proxyCount(c, "SELECT COUNT(*) FROM late WHERE id = " + id)).as("late row %d read by its key", id)
                        .isEqualTo(1);
            }
            assertThat(proxyCount(c, "SELECT COUNT(*) FROM late")).isEqualTo(rows);
        }
        long onShards = 0;
        for (int shard = 0; shard < START; shard++) {
            onShards += count(shard, "SELECT COUNT(*) FROM sb.late");
        }
        assertThat(onShards).as("late's rows on the shards, each once").isEqualTo(rows);
        assertThat(moves.get(keys.id).tables).extracting(t -> t.table).contains("late");
    }

    @Test
    @Order(5)
    void moreShardsUnderWritesWithoutAClientError() throws Exception {
        // A trigger on a table the scale writes (a sharded table's moved rows, a reference table's copies) would fire
        // for them: the scale is refused before anything starts, naming it.
        for (String table : List.of("sbtest1", "item")) {
            try (Connection c = daemon.connectProxy("sb", ""); Statement s = c.createStatement()) {
                s.execute("CREATE TRIGGER " + table + "_stamp BEFORE INSERT ON " + table + " FOR EACH ROW SET @stamped = 1");
            }
            assertThatThrownBy(() -> daemon.daemon().scale().start(UP)).as("a scale with a trigger on %s", table)
                    .isInstanceOf(MoveRefused.class).hasMessageContaining("table sb." + table + " has trigger "
                            + table + "_stamp on shard 0").hasMessageContaining("drop the triggers, scale");
            assertThat(daemon.daemon().scale().running()).isFalse();
            assertThat(running()).as("no shard started").hasSize(START);
            try (Connection c = daemon.connectProxy("sb", ""); Statement s = c.createStatement()) {
                s.execute("DROP TRIGGER " + table + "_stamp");
            }
        }
        scaleUnderLoad(UP);
        assertThat(running()).hasSize(UP);
        for (int shard = 0; shard < UP; shard++) {
            assertThat(global(shard, "innodb_buffer_pool_size")).as("buffer pool of shard %d", shard)
                    .isEqualTo(POOL_MIB / UP * MIB);
            assertThat(count(shard, "SELECT COUNT(*) FROM sb.item")).as("item on shard %d", shard).isEqualTo(4);
            assertThat(count(shard, "SELECT COUNT(*) FROM sb.sbtest1")).as("sbtest1 on shard %d", shard).isPositive();
            assertThat(count(shard, "SELECT COUNT(*) FROM mysql.user WHERE User = 'sbapp'"))
                    .as("the application's account on shard %d", shard).isEqualTo(1);
        }
        assertTotals(UP);
        assertThat(daemon.daemon().shardMaps().current().shardCount()).isEqualTo(UP);
        assertThat(daemon.daemon().statusReport().instances()).extracting(InstanceStatus::bufferPoolBytes)
                .containsOnly(POOL_MIB / UP * MIB);
        assertThat(daemon.admin("GET", "/metrics", false).body()).contains("cleave_shards " + UP + ".0")
                .contains("cleave_scale_state{state=\"done\"} 1.0");
    }

    @Test
    @Order(6)
    void fewerShardsUnderWritesAndTheOthersStop() throws Exception {
        underLoad(() -> {
            daemon.daemon().scale().start(DOWN);
            // While it runs, a move an operator asks for is refused: one onto a shard the scale takes away
            // left the map naming a shard that was gone, and the scale retried its shrink for ever.
            MoveService moves = daemon.daemon().moves();
            assertThatThrownBy(() -> moves.start("sb", "bucket:0", DOWN, "cli")).isInstanceOf(MoveRefused.class)
                    .hasMessageContaining("a scale is under way");
            assertThatThrownBy(() -> moves.rebalance(false, false)).isInstanceOf(MoveRefused.class)
                    .hasMessageContaining("a scale is under way");
            assertThatThrownBy(() -> moves.shardTable("sb.settings", new TableRule.Reference("settings")))
                    .isInstanceOf(MoveRefused.class).hasMessageContaining("a scale is under way");
            awaitScaleDone();
        });
        assertThat(running()).hasSize(DOWN);
        for (int shard = 0; shard < DOWN; shard++) {
            assertThat(global(shard, "innodb_buffer_pool_size")).as("buffer pool of shard %d", shard)
                    .isEqualTo(POOL_MIB / DOWN * MIB);
            assertThat(global(shard, "auto_increment_increment")).isEqualTo(DOWN);
            assertThat(count(shard, "SELECT COUNT(*) FROM sb.sbtest1")).as("sbtest1 on shard %d", shard).isPositive();
        }
        assertTotals(DOWN);
        int home = homeOfSettings();
        assertThat(home).as("settings left shard %d", DOWN).isLessThan(DOWN);
        assertThat(count(home, "SELECT COUNT(*) FROM sb.settings")).isEqualTo(2);
        try (Connection c = daemon.connectProxy("sb", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT value FROM settings WHERE name = 'color'")) {
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString(1)).isEqualTo("blue");
        }
        for (int shard = DOWN; shard < UP; shard++) {
            assertThat(Files.isDirectory(datadir(shard))).as("the datadir of shard %d stays", shard).isTrue();
        }
        assertThat(this.home.serverPids().keySet()).containsExactlyInAnyOrderElementsOf(shardsBelow(DOWN));
    }

    @Test
    @Order(7)
    void aRestartedDaemonRunsTheStatesCountAndSaysWhyAndPurgeDeletesWhatWasLeft() throws Exception {
        daemon.close();
        daemon = home.start();
        assertThat(running()).hasSize(DOWN);
        CleaveJar.Result status = CleaveJar.run(home, "status");
        assertThat(status.out()).contains("the config asks for " + START + " shards; 'cleave scale' changed that to " + DOWN);
        assertTotals(DOWN);
        CleaveJar.Result purge = CleaveJar.run(home, "scale", "--purge");
        assertThat(purge.code()).as(purge.out()).isZero();
        for (int shard = DOWN; shard < UP; shard++) {
            assertThat(Files.exists(datadir(shard))).as("the datadir of shard %d is gone", shard).isFalse();
        }
        assertThat(Files.isDirectory(datadir(DOWN - 1))).isTrue();
    }

    private interface Change {
        void run() throws Exception;
    }

    /** Runs {@code change} while the sysbench-like load writes; no client may get an error. */
    private void underLoad(Change change) throws Exception {
        try (SbLoad load = new SbLoad(SbLoad.proxy(daemon.proxyPort(), "sb", "sbapp", "sbpw"), 4, TABLES, ROWS)) {
            load.awaitTransactions(30, Duration.ofMinutes(1));
            change.run();
            load.awaitTransactions(30, Duration.ofMinutes(1));
            load.stopAndCheck();
        }
    }

    private void scaleUnderLoad(int shards) throws Exception {
        underLoad(() -> {
            CleaveJar.Result r = CleaveJar.run(home, "scale", "--shards", String.valueOf(shards), "--wait");
            assertThat(r.code()).as(r.out()).isZero();
            assertThat(r.out()).contains("done");
        });
    }

    private void awaitScaleDone() throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofMinutes(5).toNanos();
        while (daemon.daemon().scale().running()) {
            assertThat(System.nanoTime()).as("the scale ends within 5 minutes").isLessThan(deadline);
            Thread.sleep(200);
        }
        assertThat(daemon.daemon().scale().status().state()).isEqualTo("done");
    }

    /** The shard the unsharded table settings lives on, by the current shard map. */
    private int homeOfSettings() {
        TableRule settings = daemon.daemon().shardMaps().current().routing(daemon.daemon().config().sharding().topology())
                .ruleFor("settings");
        assertThat(settings).isInstanceOf(TableRule.Unsharded.class);
        return ((TableRule.Unsharded) settings).homeShard();
    }

    private static List<Integer> shardsBelow(int n) {
        return java.util.stream.IntStream.range(0, n).boxed().toList();
    }

    private List<InstanceStatus> running() {
        return daemon.daemon().statusReport().instances().stream().filter(i -> i.state() == InstanceState.RUNNING).toList();
    }

    /** Every table's rows are on the shards once each, and the proxy counts as many. */
    private void assertTotals(int shards) throws SQLException {
        for (int t = 1; t <= TABLES; t++) {
            long total = 0;
            for (int shard = 0; shard < shards; shard++) {
                total += count(shard, "SELECT COUNT(*) FROM sb.sbtest" + t);
            }
            assertThat(total).as("rows of sbtest%d over the shards", t).isEqualTo(ROWS);
            try (Connection c = daemon.connectProxy("sb", "")) {
                assertThat(proxyCount(c, "SELECT COUNT(*) FROM sbtest" + t)).isEqualTo(ROWS);
            }
        }
    }

    private Path datadir(int shard) {
        return home.home().data().resolve("shard-" + shard);
    }

    private long global(int shard, String variable) throws SQLException {
        return count(shard, "SELECT @@GLOBAL." + variable);
    }

    private long count(int shard, String sql) throws SQLException {
        return io.cleave.e2e.moves.MoveChecks.count(daemon, shard, sql);
    }
}
