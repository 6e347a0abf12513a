package io.cleave.e2e.routing;

import io.cleave.e2e.support.CommandLine;
import io.cleave.e2e.support.RunningDaemon;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads no merge answers, evaluated on one shard over the rows gathered from all of them, against
 * one plain server with the same rows: joins not on the key, aggregates of derived tables, windows
 * across shards, expressions over aggregates, and the column types that must travel exactly
 * (DOUBLE, FLOAT, BIT, TIMESTAMP, strings of several character sets, generated columns). Also:
 * nothing of an evaluation stays on the pooled connection it used, a transaction's own writes are
 * read, and a read past the configured bound is refused with 1235 naming it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class EvaluatedReadIT {

    private static final String SCHEMA = "evaluated";
    private static final String SHARDING_YAML = """
            sharding:
              default_shard: 0
              keyspaces:
                - { name: cust, function: hash, buckets: 64, key_type: integer }
              tables:
                - { name: customers, keyspace: cust, column: id }
                - { name: orders, keyspace: cust, column: cust_id }
                - { name: kinds, keyspace: cust, column: id }
                - { name: big, keyspace: cust, column: id }
                - { name: labels, keyspace: cust, column: id }
                - { name: products, type: reference }
                - { name: regions, type: unsharded, shard: 1 }
            """;
    private static final List<String> DDL = List.of(
            "CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(20), region CHAR(2), tier INT)",
            "CREATE TABLE orders (id INT NOT NULL, cust_id INT NOT NULL, product_id INT, total DECIMAL(10,2),"
                    + " qty INT, PRIMARY KEY (cust_id, id))",
            "CREATE TABLE products (id INT PRIMARY KEY, name VARCHAR(20))",
            "CREATE TABLE regions (code CHAR(2) PRIMARY KEY, name VARCHAR(20))",
            "CREATE TABLE kinds (id INT PRIMARY KEY, d DOUBLE, f FLOAT, b BIT(6), ts TIMESTAMP(3) NULL,"
                    + " latin VARCHAR(10) CHARACTER SET latin1, emoji VARCHAR(10) CHARACTER SET utf8mb4,"
                    + " bin VARBINARY(8), e ENUM('x','y','z'), s SET('a','b'), dt DATETIME(6), tm TIME,"
                    + " twice INT AS (id * 2) VIRTUAL, j JSON)",
            "CREATE TABLE big (id INT PRIMARY KEY, v INT)",
            "CREATE TABLE labels (id INT PRIMARY KEY, `größe` VARCHAR(10) COMMENT 'café', e ENUM('é', 'ü', 'x'))");
    /** The bound on gathered rows this class runs with: more than every table holds but big. */
    private static final int MAX_ROWS = 120;

    private ServerAndShards sides;
    private RunningDaemon sharded;
    private Connection ref;
    private Connection proxy;

    @BeforeAll
    void start() throws Exception {
        sides = ServerAndShards.start(2, SHARDING_YAML, Map.of(), Map.of("evaluate_max_rows", MAX_ROWS));
        sharded = sides.sharded();
        String options = "allowMultiQueries=true";
        ref = sides.plainConnection(options);
        proxy = sides.proxyConnection(options);
        for (Connection c : List.of(ref, proxy)) {
            Outcome.must(c, "CREATE DATABASE " + SCHEMA + " CHARACTER SET utf8mb4");
            Outcome.must(c, "USE " + SCHEMA);
            for (String ddl : DDL) {
                Outcome.must(c, ddl);
            }
            StringBuilder customers = new StringBuilder();
            StringBuilder orders = new StringBuilder();
            for (int id = 1; id <= 30; id++) {
                customers.append(id == 1 ? "" : ", ").append("(").append(id).append(", 'c").append(id).append("', '")
                        .append(new String[] {"ne", "nw", "se"}[id % 3]).append("', ").append(id % 4).append(")");
                for (int o = 1; o <= id % 5; o++) {
                    int order = id * 10 + o;
                    orders.append(orders.isEmpty() ? "" : ", ").append("(").append(order).append(", ").append(id)
                            .append(", ").append(1 + order % 6).append(", ").append(order * 1.25).append(", ")
                            .append(1 + order % 7).append(")");
                }
            }
            Outcome.must(c, "INSERT INTO customers (id, name, region, tier) VALUES " + customers);
            Outcome.must(c, "INSERT INTO orders (id, cust_id, product_id, total, qty) VALUES " + orders);
            Outcome.must(c, "INSERT INTO products (id, name) VALUES (1, 'p1'), (2, 'p2'), (3, 'p3'), (4, 'p4'), (5, 'p5')");
            Outcome.must(c, "INSERT INTO regions (code, name) VALUES ('ne', 'north east'), ('nw', 'north west')");
            StringBuilder big = new StringBuilder();
            for (int id = 1; id <= MAX_ROWS + 30; id++) {
                big.append(id == 1 ? "" : ", ").append("(").append(id).append(", ").append(id % 9).append(")");
            }
            Outcome.must(c, "INSERT INTO big (id, v) VALUES " + big);
            Outcome.must(c, "INSERT INTO labels (id, `größe`, e) VALUES (1, 'groß', 'é'), (2, 'naïve', 'ü'), (3, 'x😀', 'x')");
            Outcome.must(c, "SET time_zone = '+00:00'");
            Outcome.must(c, "INSERT INTO kinds (id, d, f, b, ts, latin, emoji, bin, e, s, dt, tm, j) VALUES"
                    + " (1, 0.1e0 + 0.2e0, 1.17549435e-38, b'101010', '2021-03-04 05:06:07.891', 'café', 'a😀b',"
                    + " X'00FF27', 'y', 'a,b', '2020-01-02 03:04:05.123456', '-12:34:56', '{\"k\": [1, 2]}'),"
                    + " (2, 1e300 / 7, 3.4e38, b'1', NULL, 'x''y\\\\z', '', X'', 'z', '', NULL, NULL, NULL),"
                    + " (3, -0.0e0, 0.1, NULL, '1970-01-01 00:00:01', NULL, NULL, NULL, NULL, NULL, '1000-01-01', '838:59:59', 'null')");
            Outcome.must(c, "SET time_zone = SYSTEM");
        }
    }

    @AfterAll
    void stop() throws SQLException {
        try (ServerAndShards s = sides; Connection r = ref; Connection p = proxy) {
            // Nothing to do: they close in reverse order, null ones (a start that failed) skipped.
        }
    }

    @Test
    void readsNoMergeAnswersAreAnsweredAsOneServer() {
        for (String sql : List.of(
                "SELECT c.id, o.id FROM customers c JOIN orders o ON o.product_id = c.tier ORDER BY c.id, o.id",
                "SELECT c.id, d.id FROM customers c JOIN customers d ON d.tier = c.tier AND d.id = c.id + 1 ORDER BY c.id",
                "SELECT c.tier, COUNT(*) + 1, AVG(c.id) / 3 FROM customers c GROUP BY c.tier ORDER BY c.tier",
                "SELECT COUNT(DISTINCT o.qty), GROUP_CONCAT(DISTINCT o.qty ORDER BY o.qty), STDDEV(o.total) FROM orders o",
                "SELECT d.id FROM (SELECT o.id, ROW_NUMBER() OVER (ORDER BY o.total, o.id) AS rn FROM orders o) d"
                        + " WHERE d.rn <= 3 ORDER BY d.id",
                "SELECT o.id FROM orders o WHERE o.total > (SELECT AVG(total) FROM orders) ORDER BY o.id",
                "SELECT x.q, COUNT(*) FROM (SELECT DISTINCT qty AS q FROM orders) x GROUP BY x.q WITH ROLLUP",
                "SELECT c.id, g.name FROM customers c JOIN regions g ON g.code = c.region ORDER BY c.id",
                "SELECT p.id, COUNT(o.id) FROM products p LEFT JOIN orders o ON o.product_id = p.id GROUP BY p.id",
                "SELECT id FROM customers WHERE tier = 1 UNION SELECT cust_id FROM orders WHERE qty = 2 ORDER BY 1",
                "WITH t AS (SELECT cust_id, SUM(total) s FROM orders GROUP BY cust_id ORDER BY s DESC LIMIT 3)"
                        + " SELECT c.name, t.s FROM t JOIN customers c ON c.id = t.cust_id ORDER BY t.s DESC")) {
            same(sql);
        }
    }

    @Test
    void everyColumnTypeTravelsExactly() {
        same("SELECT k.id, k.d, k.d = 0.1e0 + 0.2e0, k.f, HEX(k.b), k.ts, UNIX_TIMESTAMP(k.ts), HEX(k.latin),"
                + " HEX(k.emoji), HEX(k.bin), k.e, k.s, k.dt, k.tm, k.twice, k.j, COUNT(c.id)"
                + " FROM kinds k LEFT JOIN customers c ON c.tier = k.id GROUP BY k.id ORDER BY k.id");
    }

    /** Evaluated reads whose answers depend on the client's character set. */
    private static final List<String> IN_THE_CLIENTS_CHARACTER_SET = List.of(
            "SELECT ROUND(AVG(o.total), 4) FROM orders o",
            "SELECT c.name, g.name FROM customers c JOIN regions g ON g.code = c.region ORDER BY c.id",
            "SELECT k.id, k.latin, k.emoji, k.e, k.s, COUNT(c.id) FROM kinds k LEFT JOIN customers c ON c.tier = k.id"
                    + " GROUP BY k.id ORDER BY k.id",
            "SELECT l.id, l.`größe`, l.e, COUNT(c.id) FROM labels l LEFT JOIN customers c ON c.tier = l.id"
                    + " WHERE l.`größe` <> 'ß' GROUP BY l.id ORDER BY l.id",
            "SELECT CONCAT(l.`größe` COLLATE utf8mb4_bin, k.latin COLLATE latin1_bin) FROM labels l"
                    + " JOIN kinds k ON k.id = l.id + 0 JOIN customers c ON c.tier = k.id");

    @Test
    void aClientInAnotherCharacterSetIsAnsweredInItAsByOneServer() throws Exception {
        // JDBC in latin1 (cp1252) and in utf8mb3: values, column lengths and errors as one server gives them.
        for (String encoding : List.of("characterEncoding=Cp1252", "characterEncoding=UTF-8&connectionCollation=utf8mb3_general_ci")) {
            try (Connection r = sides.plainConnection(encoding); Connection p = sides.proxyConnection(encoding)) {
                for (Connection c : List.of(r, p)) {
                    Outcome.must(c, "USE " + SCHEMA);
                }
                for (String sql : IN_THE_CLIENTS_CHARACTER_SET) {
                    Outcome expected = Outcome.run(r, sql);
                    Outcome actual = Outcome.run(p, sql);
                    assertThat(Outcome.difference(new Corpus.Entry(0, sql, Corpus.Kind.READ, sql.contains("ORDER BY"), -1,
                            false, false, null), expected, actual)).as("%s: %s", encoding, sql).isNull();
                }
            }
        }
        // Debian's mariadb client (10.11): utf8mb3 by default, and latin1; every byte it prints, with
        // each column's collation, length and flags (--column-type-info), as from one server.
        io.cleave.manager.daemon.ShardEndpoint plain = sides.plain().shards().get(0);
        for (List<String> charset : List.of(List.<String>of(), List.of("--default-character-set=latin1"))) {
            for (String sql : IN_THE_CLIENTS_CHARACTER_SET) {
                List<String> options = new java.util.ArrayList<>(charset);
                options.addAll(List.of("--column-type-info", "-D" + SCHEMA));
                CommandLine.Result expected = CommandLine.mariadb(plain.port(), plain.user(), plain.secret(), options, sql);
                CommandLine.Result actual = CommandLine.mariadb(sharded.proxyPort(), "root", "", options, sql);
                assertThat(actual.stdout()).as("%s %s", charset, sql).isEqualTo(expected.stdout());
                assertThat(errorLine(actual.stderr())).as("%s %s", charset, sql).isEqualTo(errorLine(expected.stderr()));
                assertThat(actual.exitCode()).isEqualTo(expected.exitCode());
            }
        }
    }

    /** The client's error line without its statement number. */
    private static String errorLine(String stderr) {
        return stderr.replaceAll(" at line \\d+", "").strip();
    }

    @Test
    void aReadPastTheBoundIsRefusedNamingIt() {
        Outcome refused = Outcome.run(proxy, "SELECT COUNT(DISTINCT v) FROM big");
        assertThat(refused).isInstanceOf(Outcome.Failure.class);
        Outcome.Failure f = (Outcome.Failure) refused;
        assertThat(f.code()).isEqualTo(1235);
        assertThat(f.message()).contains("COUNT(DISTINCT").contains("more than " + MAX_ROWS + " rows")
                .contains("proxy.evaluate_max_rows");
        // With a sharding key, one shard answers it as it is.
        same("SELECT COUNT(DISTINCT v) FROM big WHERE id = 7");
    }

    @Test
    void nothingOfAnEvaluationStaysOnTheConnectionsItUsed() {
        for (int round = 0; round < 6; round++) {
            same("SELECT COUNT(DISTINCT o.qty), SUM(o.total) FROM orders o JOIN customers c ON c.tier = o.product_id");
            // A temporary copy left on a pooled connection would answer this merged count with every shard's rows.
            same("SELECT COUNT(*), SUM(total) FROM orders");
            same("SELECT cust_id, COUNT(*) FROM orders GROUP BY cust_id ORDER BY cust_id");
        }
    }

    @Test
    void aTransactionReadsItsOwnWritesWhenEvaluated() {
        try {
            for (Connection c : List.of(ref, proxy)) {
                Outcome.must(c, "BEGIN");
                Outcome.must(c, "INSERT INTO orders (id, cust_id, product_id, total, qty) VALUES (9001, 3, 2, 77.50, 4),"
                        + " (9002, 4, 3, 12.25, 5)");
                Outcome.must(c, "UPDATE customers SET tier = 9 WHERE id IN (5, 6)");
            }
            same("SELECT c.tier, COUNT(o.id), SUM(o.total) FROM customers c LEFT JOIN orders o ON o.qty = c.tier"
                    + " GROUP BY c.tier ORDER BY c.tier");
            same("SELECT id, total FROM orders WHERE total > (SELECT AVG(total) FROM orders) ORDER BY id");
        } finally {
            for (Connection c : List.of(ref, proxy)) {
                Outcome.must(c, "ROLLBACK");
            }
        }
        same("SELECT c.tier, COUNT(o.id), SUM(o.total) FROM customers c LEFT JOIN orders o ON o.qty = c.tier"
                + " GROUP BY c.tier ORDER BY c.tier");
    }

    /**
     * What an evaluation costs against the same read on one server holding every row: per query
     * shape, the median and 95th percentile latency, and the CPU the servers and this JVM (the
     * proxy, and the test's client) used, with what every other process on the host used meanwhile.
     * Long: only with {@code -Devaluate.cost=N} (N runs of each shape on each side).
     */
    @Test
    void costAgainstOneServer() throws Exception {
        int runs = Integer.getInteger("evaluate.cost", 0);
        org.junit.jupiter.api.Assumptions.assumeTrue(runs > 0, "a measurement: run with -Devaluate.cost=N");
        List<String> shapes = List.of(
                "SELECT COUNT(DISTINCT o.qty), SUM(o.total) FROM orders o",
                "SELECT c.tier, COUNT(o.id) FROM customers c JOIN orders o ON o.qty = c.tier GROUP BY c.tier",
                "SELECT d.id FROM (SELECT o.id, ROW_NUMBER() OVER (ORDER BY o.total, o.id) AS rn FROM orders o) d"
                        + " WHERE d.rn <= 3",
                "SELECT id FROM customers WHERE tier = 1 UNION SELECT cust_id FROM orders WHERE qty = 2");
        StringBuilder table = new StringBuilder("| query | side | median ms | p95 ms | server CPU ms/query"
                + " | proxy+client JVM CPU ms/query | other processes' CPU ms/query |\n|---|---|---|---|---|---|---|\n");
        for (String sql : shapes) {
            same(sql);
            for (boolean throughProxy : new boolean[] {false, true}) {
                Connection c = throughProxy ? proxy : ref;
                List<Long> servers = throughProxy ? sharded.pids() : sides.plain().pids();
                Cpu before = Cpu.now(servers);
                long[] nanos = new long[runs];
                for (int i = 0; i < runs; i++) {
                    long t = System.nanoTime();
                    Outcome o = Outcome.run(c, sql);
                    nanos[i] = System.nanoTime() - t;
                    assertThat(o).isNotInstanceOf(Outcome.Failure.class);
                }
                Cpu used = Cpu.now(servers).minus(before);
                java.util.Arrays.sort(nanos);
                table.append(String.format("| `%s` | %s | %.2f | %.2f | %.2f | %.2f | %.2f |%n", sql,
                        throughProxy ? "proxy, evaluated on 1 of 2 shards" : "one server",
                        nanos[runs / 2] / 1e6, nanos[(int) (runs * 0.95)] / 1e6, used.servers / (double) runs,
                        used.jvm / (double) runs, used.others / (double) runs));
            }
        }
        System.out.println("evaluation cost, " + runs + " runs per query and side:\n" + table);
    }

    /** CPU milliseconds used so far: by the given server processes, this JVM, and everything else on the host. */
    private record Cpu(long servers, long jvm, long others) {
        static Cpu now(List<Long> serverPids) throws java.io.IOException {
            long servers = 0;
            for (long pid : serverPids) {
                servers += ticks("/proc/" + pid + "/stat");
            }
            long jvm = ticks("/proc/self/stat");
            String[] total = java.nio.file.Files.readAllLines(java.nio.file.Path.of("/proc/stat")).get(0).trim()
                    .split("\\s+");
            long busy = 0;
            for (int i = 1; i < total.length; i++) {
                if (i != 4 && i != 5) {
                    busy += Long.parseLong(total[i]);
                }
            }
            long tick = 10; // ms per clock tick (USER_HZ = 100)
            return new Cpu(servers * tick, jvm * tick, (busy - servers - jvm) * tick);
        }

        Cpu minus(Cpu earlier) {
            return new Cpu(servers - earlier.servers, jvm - earlier.jvm, others - earlier.others);
        }

        private static long ticks(String stat) throws java.io.IOException {
            String text = java.nio.file.Files.readString(java.nio.file.Path.of(stat));
            String[] f = text.substring(text.lastIndexOf(')') + 2).split(" ");
            return Long.parseLong(f[11]) + Long.parseLong(f[12]);
        }
    }

    private void same(String sql) {
        assertThat(Outcome.sameAnswer(ref, proxy, sql, sql.contains("ORDER BY"))).as(sql).isNull();
    }
}
