package io.cleave.e2e.routing;

import io.cleave.e2e.support.RawMysqlClient;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.ServerMatrix;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.plan.TargetResolver;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Answers that used to be wrong across shards, checked against one plain server with the same
 * rows (or, where the proxy must refuse, for the 1235 that names the table, its key and why):
 * a reference table driving a semi-join, anti-join or outer join; sql_select_limit and
 * div_precision_increment on merged and single-shard reads; keys that leave out the sharding
 * column; version comments; multi-statements under ANSI_QUOTES; statements the parser cannot
 * read; views; character sets that are not ASCII-safe and unknown collation ids; rows over 16 MB.
 */
@ServerMatrix
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CrossShardAnswersIT {

    private static final String SCHEMA = "answers";
    private static final String SHARDING_YAML = """
            sharding:
              default_shard: 0
              keyspaces:
                - { name: cust, function: hash, buckets: 64, key_type: integer }
              tables:
                - { name: customers, keyspace: cust, column: id }
                - { name: orders, keyspace: cust, column: cust_id }
                - { name: order_items, keyspace: cust, column: cust_id }
                - { name: widgets, keyspace: cust, column: cust_id }
                - { name: blobs, keyspace: cust, column: id }
                - { name: products, type: reference }
            """;
    private static final List<String> DDL = List.of(
            "CREATE TABLE customers (id INT PRIMARY KEY, name VARCHAR(20), tier INT)",
            "CREATE TABLE orders (id INT NOT NULL, cust_id INT NOT NULL, product_id INT, total DECIMAL(10,2), qty INT,"
                    + " PRIMARY KEY (cust_id, id))",
            "CREATE TABLE order_items (cust_id INT NOT NULL, order_id INT NOT NULL, line INT NOT NULL, product_id INT,"
                    + " qty INT, PRIMARY KEY (cust_id, order_id, line))",
            "CREATE TABLE products (id INT PRIMARY KEY, name VARCHAR(20))");

    private ServerAndShards sides;
    private RunningDaemon sharded;
    private Connection ref;
    private Connection proxy;

    @BeforeAll
    void start() throws Exception {
        // Shards whose rows may pass 16 MB.
        sides = ServerAndShards.start(4, SHARDING_YAML, Map.of("max_allowed_packet", "64M"));
        sharded = sides.sharded();
        String options = "allowMultiQueries=true&maxAllowedPacket=67108864";
        ref = sides.plainConnection(options);
        proxy = sides.proxyConnection(options);
        for (Connection c : List.of(ref, proxy)) {
            run(c, "CREATE DATABASE " + SCHEMA);
            run(c, "USE " + SCHEMA);
            for (String ddl : DDL) {
                run(c, ddl);
            }
            StringBuilder customers = new StringBuilder();
            StringBuilder orders = new StringBuilder();
            StringBuilder items = new StringBuilder();
            for (int id = 1; id <= 24; id++) {
                customers.append(id == 1 ? "" : ", ").append("(").append(id).append(", 'c").append(id).append("', ")
                        .append(id % 3).append(")");
                for (int o = 1; o <= id % 4; o++) {
                    int order = id * 10 + o;
                    orders.append(orders.length() == 0 ? "" : ", ").append("(").append(order).append(", ").append(id)
                            .append(", ").append(1 + (order % 7)).append(", ").append(order * 1.25).append(", ")
                            .append(1 + order % 5).append(")");
                    items.append(items.length() == 0 ? "" : ", ").append("(").append(id).append(", ").append(order)
                            .append(", 1, ").append(1 + (order % 9)).append(", ").append(order % 10).append(")");
                }
            }
            run(c, "INSERT INTO customers (id, name, tier) VALUES " + customers);
            run(c, "INSERT INTO orders (id, cust_id, product_id, total, qty) VALUES " + orders);
            run(c, "INSERT INTO order_items (cust_id, order_id, line, product_id, qty) VALUES " + items);
            run(c, "INSERT INTO products (id, name) VALUES (1, 'p1'), (2, 'p2'), (3, 'p3'), (4, 'p4'), (5, 'p5'),"
                    + " (6, 'p6'), (7, 'p7'), (8, 'p8'), (9, 'p9'), (10, 'p10'), (11, 'p11')");
        }
    }

    @AfterAll
    void stop() throws SQLException {
        try {
            if (proxy != null) {
                proxy.close();
            }
            if (ref != null) {
                ref.close();
            }
        } finally {
            if (sides != null) {
                sides.close();
            }
        }
    }

    @Test
    void aReferenceTableDrivingASemiAntiOrOuterJoinIsEvaluatedOverAllShardsRowsAndAnsweredOnOne() throws Exception {
        for (String sql : List.of(
                "SELECT id FROM products WHERE id IN (SELECT product_id FROM order_items)",
                "SELECT p.id FROM products p WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.product_id = p.id"
                        + " AND i.qty = 3)",
                "SELECT p.id, COUNT(*) FROM products p LEFT JOIN order_items i ON i.product_id = p.id GROUP BY p.id",
                "SELECT COUNT(*) FROM products p LEFT JOIN orders o ON o.id = p.id")) {
            // Every shard would answer with its own copy of products: the sharded rows are gathered instead.
            same(sql);
        }
        // With the customer's key the rows are on one shard: answered there, as one server answers.
        same("SELECT id FROM products WHERE id IN (SELECT product_id FROM order_items WHERE cust_id = 7) ORDER BY id");
        same("SELECT p.id FROM products p WHERE EXISTS (SELECT 1 FROM orders o WHERE o.product_id = p.id"
                + " AND o.cust_id = 7) ORDER BY p.id");
        // Orders driving, products joined: exact on every shard.
        same("SELECT o.id, p.name FROM orders o LEFT JOIN products p ON p.id = o.product_id ORDER BY o.id");
    }

    @Test
    void sqlSelectLimitHoldsForMergedAndSingleShardReads() throws Exception {
        try {
            both("SET sql_select_limit = 5");
            same("SELECT id FROM customers ORDER BY id");
            same("SELECT cust_id, COUNT(*), SUM(total) FROM orders GROUP BY cust_id ORDER BY cust_id");
            same("SELECT DISTINCT tier FROM customers ORDER BY tier DESC");
            same("SELECT id FROM orders WHERE cust_id = 7 ORDER BY id");
            same("SELECT id FROM customers ORDER BY id LIMIT 7");
            assertThat(rows(proxy, "SELECT id FROM customers")).hasSize(5);
            both("SET sql_select_limit = 0");
            same("SELECT id FROM customers ORDER BY id");
            same("SELECT COUNT(*) FROM orders");
        } finally {
            both("SET sql_select_limit = DEFAULT");
        }
        assertThat(rows(proxy, "SELECT id FROM customers")).hasSize(24);
    }

    @Test
    void mergedAverageFollowsDivPrecisionIncrement() throws Exception {
        try {
            for (int increment : new int[] {0, 1, 2, 7, 9, 12}) {
                both("SET div_precision_increment = " + increment);
                same("SELECT AVG(total), AVG(qty), AVG(id) FROM orders");
                same("SELECT cust_id % 3 AS g, AVG(total) FROM orders GROUP BY g ORDER BY g");
            }
        } finally {
            both("SET div_precision_increment = DEFAULT");
        }
    }

    @Test
    void aKeyWithoutTheShardingColumnIsEnforcedAcrossShardsAndItsIdsComeFromTheSequence() throws Exception {
        try (Statement s = proxy.createStatement()) {
            s.execute("CREATE TABLE widgets (id INT NOT NULL AUTO_INCREMENT PRIMARY KEY, cust_id INT NOT NULL,"
                    + " code VARCHAR(10), UNIQUE KEY u_code (code), UNIQUE KEY u_pair (cust_id, code))");
            assertThat((Object) s.getWarnings()).as("PRIMARY and u_code are global unique keys: nothing to warn of").isNull();
            // Rows of several customers without an id: ids from the proxy's sequence, unique across shards.
            s.execute("INSERT INTO widgets (cust_id, code) VALUES (1, 'a'), (2, 'b'), (3, 'c'), (4, 'd'), (5, 'e')");
            s.execute("INSERT INTO widgets (cust_id, code) VALUES (6, 'f')");
            assertThat(rows(proxy, "SELECT LAST_INSERT_ID()")).containsExactly(List.of("6"));
            s.execute("INSERT INTO widgets (cust_id, code) VALUES (7, 'g'), (8, 'h')");
            assertThat(rows(proxy, "SELECT id FROM widgets ORDER BY id")).containsExactly(List.of("1"), List.of("2"),
                    List.of("3"), List.of("4"), List.of("5"), List.of("6"), List.of("7"), List.of("8"));
            assertThat(rows(proxy, "SELECT COUNT(DISTINCT id) FROM widgets WHERE cust_id = 7")).containsExactly(List.of("1"));
            // Another customer's row holds code 'a' and id 3, wherever its shard is: one server's errors.
            assertThatThrownBy(() -> s.execute("INSERT INTO widgets (cust_id, code) VALUES (9, 'a')"))
                    .hasMessage("Duplicate entry 'a' for key 'u_code'");
            assertThatThrownBy(() -> s.execute("INSERT INTO widgets (id, cust_id, code) VALUES (3, 10, 'z')"))
                    .hasMessage("Duplicate entry '3' for key 'PRIMARY'");
        }
    }

    @Test
    void versionCommentsAreReadAsTheShardsServerReadsThem() throws Exception {
        // MariaDB skips /*!99999 and /*!50700 (MySQL 5.7+ versions) but runs /*!40000 and /*M!100000.
        same("SELECT id FROM customers WHERE /*!99999 id = 2 AND */ id = 5");
        same("SELECT id FROM customers WHERE /*!50700 id = 3 AND */ id = 6");
        same("SELECT id FROM customers WHERE /*!40000 id = 4 AND */ id = 4");
        same("SELECT id FROM customers WHERE /*M!100000 id = 9 AND */ id = 9");
    }

    @Test
    void aMultiStatementIsReadInTheSessionsSqlMode() throws Exception {
        try {
            both("SET sql_mode = 'ANSI_QUOTES'");
            assertThat(refusal("SELECT id FROM \"customers\" WHERE id = 5; SELECT 1")).contains("several statements");
        } finally {
            both("SET sql_mode = DEFAULT");
        }
    }

    @Test
    void unreadableStatementsViewsAndPreparedTextOverShardedRowsAreRefused() throws Exception {
        assertThat(refusal("EXECUTE IMMEDIATE 'SELECT COUNT(*) FROM orders'")).contains("orders (sharded by cust_id)");
        assertThat(refusal("CREATE VIEW big_orders AS SELECT * FROM orders WHERE total > 100"))
                .contains("the view big_orders reads orders (sharded by cust_id)");
        assertThat(refusal("PREPARE s FROM 'SELECT COUNT(*) FROM customers'")).contains("SQL PREPARE");
        assertThat(refusal("CREATE FUNCTION customer_count() RETURNS INT RETURN (SELECT COUNT(*) FROM customers)"))
                .contains("customers (sharded by id)");
        // A view over the reference table is the same on every shard.
        run(proxy, "CREATE VIEW product_names AS SELECT name FROM products");
        run(ref, "CREATE VIEW product_names AS SELECT name FROM products");
        same("SELECT name FROM product_names ORDER BY name");
    }

    @Test
    void aCharacterSetThatIsNotAsciiSafeReadsOnlyAsciiStatements() throws Exception {
        int port = sharded.proxyPort();
        try (RawMysqlClient gbk = RawMysqlClient.connect(port)) {
            assertThat(RawMysqlClient.isOk(gbk.authenticate("root", "", SCHEMA, 28))).isTrue();
            assertThat(gbk.queryRows("SELECT COUNT(*) FROM customers WHERE id < 10")).containsExactly(List.of("9"));
            // 0x955C is one gbk character whose second byte is a backslash.
            byte[] sql = RawMysqlClient.concat("SELECT id FROM customers WHERE name = '".getBytes(StandardCharsets.US_ASCII),
                    new byte[] {(byte) 0x95, 0x5C, '\'', ' ', 'O', 'R', ' ', 'i', 'd', ' ', '=', ' ', '1'});
            byte[] reply = gbk.command(RawMysqlClient.concat(new byte[] {0x03}, sql));
            assertThat(RawMysqlClient.isErr(reply)).isTrue();
            assertThat(RawMysqlClient.errorCode(reply)).isEqualTo(1235);
            assertThat(RawMysqlClient.errorMessage(reply)).contains("not ASCII-safe");
        }
        try (RawMysqlClient unknown = RawMysqlClient.connect(port)) {
            byte[] reply = unknown.authenticate("root", "", SCHEMA, 252);
            assertThat(RawMysqlClient.isErr(reply)).isTrue();
            assertThat(RawMysqlClient.errorCode(reply)).isEqualTo(1115);
            assertThat(RawMysqlClient.errorMessage(reply)).contains("collation id 252");
        }
    }

    @Test
    void rowsOver16MegabytesMergeAcrossShards() throws Exception {
        run(proxy, "CREATE TABLE blobs (id INT PRIMARY KEY, b LONGBLOB)");
        TargetResolver resolver = new TargetResolver(sharded.daemon().config().sharding().topology());
        long first = 1;
        long second = 2;
        while (shard(resolver, second) == shard(resolver, first)) {
            second++;
        }
        // Rows just over 16 MB, made by the shards themselves (no 16 MB statement to send).
        int repeats = 16 * 1024 * 1024 / 3 + 10;
        for (long id : new long[] {first, second}) {
            run(proxy, "INSERT INTO blobs (id, b) VALUES (" + id + ", REPEAT('ab3', " + repeats + "))");
        }
        byte[] big = "ab3".repeat(repeats).getBytes(StandardCharsets.US_ASCII);
        try (Statement s = proxy.createStatement();
             ResultSet rs = s.executeQuery("SELECT id, b FROM blobs ORDER BY id")) {
            List<Long> ids = new ArrayList<>();
            while (rs.next()) {
                ids.add(rs.getLong(1));
                assertThat(Arrays.equals(rs.getBytes(2), big)).as("row %d intact", rs.getLong(1)).isTrue();
            }
            assertThat(ids).containsExactly(first, second);
        }
    }

    private int shard(TargetResolver resolver, long key) {
        return resolver.shardOf("cust", ShardKey.of(key), sharded.daemon().shardMaps().current());
    }

    // ---- helpers ---------------------------------------------------------------------------

    /** The statement gives the same rows through the proxy as on the plain server (in order). */
    private void same(String sql) throws SQLException {
        assertThat(Outcome.sameAnswer(ref, proxy, sql, true)).as(sql).isNull();
    }

    private String refusal(String sql) {
        Outcome o = Outcome.run(proxy, sql);
        assertThat(o).as(sql).isInstanceOf(Outcome.Failure.class);
        Outcome.Failure f = (Outcome.Failure) o;
        assertThat(f.code()).as(f.message()).isEqualTo(1235);
        return f.message();
    }

    private void both(String sql) throws SQLException {
        run(ref, sql);
        run(proxy, sql);
    }

    private static void run(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    private static List<List<String>> rows(Connection c, String sql) throws SQLException {
        List<List<String>> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                List<String> row = new ArrayList<>();
                for (int i = 1; i <= n; i++) {
                    row.add(rs.getString(i));
                }
                out.add(row);
            }
        }
        return out;
    }
}
