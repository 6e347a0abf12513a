package io.cleave.router.plan;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Statements that used to get a wrong answer across shards, each now answered exactly (the shards
 * it reaches, and why the merge is exact) or refused with the table, its key and the reason. The
 * schema is the one a new user tries: customers, orders and order_items hashed on the customer id,
 * a range-sharded ledger, a reference table of products, and regions unsharded on shard 1.
 */
class CrossShardAnswersTest {

    private static final String ALL = "shards 0, 1, 2, 3 (all)";

    private final Topology topology = shop();
    private final Router router = new Router(topology);
    private final Explainer explainer = new Explainer(router);
    private final ShardMap map = ShardMap.initial(topology, Map.of());

    static Topology shop() {
        Map<String, Keyspace> keyspaces = new LinkedHashMap<>();
        keyspaces.put("cust", new Keyspace("cust", new HashShardFunction(64, KeyType.INTEGER)));
        keyspaces.put("acct", new Keyspace("acct", new RangeShardFunction(List.of(
                new KeyRange(1, 25), new KeyRange(26, 50), new KeyRange(51, 75), new KeyRange(76, Long.MAX_VALUE)))));
        Map<String, TableRule> tables = new LinkedHashMap<>();
        tables.put("customers", new TableRule.Sharded("customers", "cust", "id"));
        tables.put("orders", new TableRule.Sharded("orders", "cust", "cust_id"));
        tables.put("order_items", new TableRule.Sharded("order_items", "cust", "cust_id"));
        tables.put("ledger", new TableRule.Sharded("ledger", "acct", "acct"));
        tables.put("products", new TableRule.Reference("products"));
        tables.put("regions", new TableRule.Unsharded("regions", 1));
        return new Topology(4, keyspaces, tables, 0);
    }

    private Explainer.Explanation explain(String sql, SqlMode mode) {
        return explainer.explain(sql.getBytes(StandardCharsets.UTF_8), mode, map);
    }

    private String shards(String sql) {
        return explain(sql, SqlMode.DEFAULT).shards();
    }

    private String shardOf(long customer) {
        return "shard " + new TargetResolver(topology).shardOf("cust", ShardKey.of(customer), map);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            // A reference table on the driving side of a semi-join, anti-join or outer join.
            "SELECT id FROM products WHERE id IN (SELECT product_id FROM order_items) | products (a reference table) drives this query",
            "SELECT p.id FROM products p WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.product_id = p.id AND i.qty = 10) | products (a reference table) drives this query",
            "SELECT p.id, COUNT(*) FROM products p LEFT JOIN order_items i ON i.product_id = p.id GROUP BY p.id | order_items (sharded by cust_id) is only on the nullable side of an outer join with products",
            "SELECT COUNT(*) FROM products p LEFT JOIN orders o ON o.id = p.id | orders (sharded by cust_id) is only on the nullable side",
            "SELECT o.id FROM orders o RIGHT JOIN products p ON p.id = o.product_id | orders (sharded by cust_id) is only on the nullable side",
            "SELECT 1 FROM DUAL WHERE EXISTS (SELECT 1 FROM orders) | a query without a sharded table in its FROM reads orders (sharded by cust_id)",
            // A condition of a subquery on outer tables restricts nothing outside it.
            "SELECT c.id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE c.id = 5) | not tied to the outer rows by the sharding key",
            // An equality inside NOT EXISTS does not join the two outer tables.
            "SELECT COUNT(*) FROM customers c, orders o WHERE NOT EXISTS (SELECT 1 FROM order_items i WHERE i.cust_id = c.id AND i.cust_id = o.cust_id) | not co-located",
            // An outer join's ON between two tables of its preserved side joins nothing.
            "SELECT COUNT(*) FROM customers c CROSS JOIN orders o LEFT JOIN products p ON o.cust_id = c.id AND p.id = o.product_id | not co-located",
            // Window functions and LIMIT in derived tables pick among every shard's rows.
            "SELECT d.id FROM (SELECT o.id, ROW_NUMBER() OVER (ORDER BY o.total, o.id) AS rn FROM orders o) d WHERE d.rn <= 3 | the window function ROW_NUMBER() over orders (sharded by cust_id) is not partitioned by the sharding key",
            "SELECT SUM(d.total) FROM (SELECT total FROM orders ORDER BY total DESC LIMIT 5) d | LIMIT in a derived table or CTE over orders (sharded by cust_id)",
            "SELECT d.status FROM (SELECT DISTINCT status FROM orders) d | DISTINCT in a derived table or CTE over orders (sharded by cust_id)",
            "SELECT d.n FROM (SELECT status, COUNT(*) AS n FROM orders GROUP BY status) d | aggregates without GROUP BY its sharding key orders.cust_id",
            "WITH x AS (SELECT id, cust_id FROM orders) SELECT COUNT(*) FROM x a JOIN x b ON b.id = a.id | not co-located",
            "SELECT o.id FROM orders o WHERE o.cust_id IN (SELECT id FROM customers WHERE tier = 2 LIMIT 3) | not tied to the outer rows by the sharding key",
            "SELECT id FROM customers UNION SELECT cust_id FROM orders | UNION, INTERSECT and EXCEPT of customers (sharded by id) and orders (sharded by cust_id)",
    })
    void noMergeAnswersButOneShardEvaluatesOverAllRows(String sql, String fragment) {
        // No merge is exact when the keys reach several shards (with a key of one shard, that shard
        // answers): the rows are gathered and one shard evaluates the statement; why no merge
        // could is kept for when evaluation cannot run.
        assertThat(shards(sql)).startsWith("evaluated on shard 0 over the rows of [");
        Plan.Spread several = ((Plan.Route) router.analyze(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT,
                new Analysis()).plan()).several();
        assertThat(((Plan.Evaluate) several).mergeRefusal()).contains(fragment);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "SELECT c.id, o.id FROM customers c JOIN orders o ON o.product_id = c.tier FOR UPDATE | not co-located",
            "SELECT COUNT(DISTINCT o.qty) INTO @n FROM orders o | SELECT ... INTO",
            "SELECT SQL_CALC_FOUND_ROWS COUNT(DISTINCT o.qty) FROM orders o | SQL_CALC_FOUND_ROWS",
    })
    void readsThatLockOrLeaveStateStayRefused(String sql, String fragment) {
        assertThat(shards(sql)).startsWith("none: ").contains(fragment);
    }

    @Test
    void anUnshardedTablesHomeEvaluatesAndOnlyTheShardedRowsMove() {
        assertThat(shards("SELECT c.id, g.name FROM customers c JOIN regions g ON g.code = c.region"))
                .isEqualTo("evaluated on shard 1 over the rows of [customers (all shards)] gathered from the shards");
        // A customer on another shard than the home: still gathered (its key narrows nothing the home holds).
        String other = shardOf(7).equals("shard 1") ? "8" : "7";
        assertThat(shards("SELECT c.id, g.name FROM customers c JOIN regions g ON g.code = c.region WHERE c.id = " + other))
                .startsWith(shardOf(Long.parseLong(other)).equals("shard 1") ? "shard 1" : "evaluated on shard 1");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "SELECT o.id, p.name FROM products p RIGHT JOIN orders o ON p.id = o.product_id | partitioned_rows, reference_copy",
            "SELECT c.id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.cust_id = c.id AND o.cust_id = 31) | correlated_by_key",
            "SELECT c.id, COUNT(o.id) FROM customers c LEFT JOIN orders o ON o.cust_id = c.id GROUP BY c.id | join_on_key",
            "SELECT o.id FROM orders o WHERE o.cust_id IN (SELECT id FROM customers WHERE tier = 2) | correlated_by_key",
            "SELECT id, ROW_NUMBER() OVER (PARTITION BY cust_id ORDER BY id) FROM orders | window_partitioned_by_key",
            "SELECT d.cust_id, d.n FROM (SELECT cust_id, COUNT(*) AS n FROM orders GROUP BY cust_id) d | derived_partitioned, grouped_by_key",
            "SELECT id FROM customers WHERE tier = 1 UNION ALL SELECT cust_id FROM orders | union_all_concatenation",
            "SELECT status, COUNT(*) FROM orders GROUP BY status LIMIT 3 | reaggregate, select_limit_after_merge",
    })
    void answeredOnEveryShardByNamedRules(String sql, String rules) {
        Explanation e = new Explanation(explain(sql, SqlMode.DEFAULT));
        assertThat(e.shards).isEqualTo(ALL);
        assertThat(e.plan).contains(rules);
    }

    private record Explanation(String plan, String shards) {
        Explanation(Explainer.Explanation e) {
            this(e.plan(), e.shards());
        }
    }

    @Test
    void aKeyInsideNotExistsDoesNotNarrowTheOuterRows() {
        assertThat(shards("SELECT c.id FROM customers c WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE o.cust_id = c.id"
                + " AND o.cust_id = 31)")).isEqualTo(ALL);
        assertThat(shards("SELECT c.id FROM customers c WHERE EXISTS (SELECT 1 FROM orders o WHERE o.cust_id = c.id"
                + " AND o.cust_id = 31)")).isEqualTo(shardOf(31));
        assertThat(shards("SELECT p.id FROM products p WHERE EXISTS (SELECT 1 FROM orders o WHERE o.product_id = p.id"
                + " AND o.cust_id = 7)")).isEqualTo(shardOf(7));
        assertThat(shards("SELECT c.id FROM customers c LEFT JOIN orders o ON o.cust_id = c.id AND o.cust_id = 9"))
                .isEqualTo(ALL);
    }

    @Test
    void everyKeyConditionCountsNotOnlyTheFirst() {
        long a = 1;
        long b = 2;
        while (shardOf(b).equals(shardOf(a))) {
            b++;
        }
        // Rows need both keys: none qualifies, and every shard answers alike (empty); all are asked.
        assertThat(shards("SELECT * FROM orders WHERE cust_id = " + a + " AND cust_id = " + b)).isEqualTo(ALL);
        assertThat(shards("SELECT * FROM orders WHERE cust_id IN (" + a + ", " + b + ") AND cust_id = " + b))
                .isEqualTo(shardOf(b));
        assertThat(explain("SELECT * FROM orders WHERE cust_id = 1 AND cust_id = 2", SqlMode.DEFAULT).plan())
                .contains("cust[orders]=[$0]&=[$1]");
    }

    @Test
    void versionCommentsAreReadAsTheServerReadsThem() {
        // MariaDB 11.4 skips /*!99999 ...*/: the key is 1, not 2.
        assertThat(shards("SELECT * FROM customers WHERE /*!99999 id = 2 AND */ id = 1")).isEqualTo(shardOf(1));
        assertThat(shards("SELECT * FROM customers WHERE /*!40000 id = 2 AND */ id = 2")).isEqualTo(shardOf(2));
        router.serverVersion("8.0.36");
        assertThat(shards("SELECT * FROM customers WHERE /*M!100100 id = 3 AND */ id = 4")).isEqualTo(shardOf(4));
    }

    @Test
    void multiStatementsAreReadInTheSessionsSqlMode() {
        SqlMode ansi = new SqlMode(true, false);
        Plan plan = router.analyze("SELECT id FROM \"customers\" WHERE id = 5; SELECT 1".getBytes(StandardCharsets.UTF_8),
                ansi, new Analysis()).plan();
        assertThat(plan).isInstanceOf(Plan.MultiStatement.class);
        Plan whole = ((Plan.MultiStatement) plan).plan();
        assertThat(whole).isInstanceOf(Plan.Refuse.class);
        assertThat(((Plan.Refuse) whole).code()).isEqualTo(1235);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "SELEKT * FROM \"orders\" | orders (sharded by cust_id)",
            "SELEKT * FROM `order``s`, orders | orders (sharded by cust_id)",
            "SELEKT * FROM regions | regions (unsharded, on shard 1)",
            "EXECUTE IMMEDIATE 'SELECT * FROM orders' | orders (sharded by cust_id)",
            "TABLE orders | orders (sharded by cust_id)",
    })
    void unreadableStatementsNamingRowsElsewhereAreRefusedWith1235(String sql, String named) {
        Plan plan = router.analyze(sql.getBytes(StandardCharsets.UTF_8), new SqlMode(true, false), new Analysis()).plan();
        assertThat(plan).isInstanceOf(Plan.Refuse.class);
        Plan.Refuse refuse = (Plan.Refuse) plan;
        assertThat(refuse.code()).isEqualTo(1235);
        assertThat(refuse.message()).contains(named);
    }

    @Test
    void unreadableStatementsOverTheDefaultShardsTablesGoThere() {
        assertThat(shards("SELEKT * FROM notes")).isEqualTo("shard 0");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "CREATE VIEW v AS SELECT * FROM orders | the view v reads orders (sharded by cust_id)",
            "CREATE VIEW v AS SELECT r.name FROM regions r | the view v reads regions (unsharded, on shard 1)",
            "CREATE FUNCTION f() RETURNS INT RETURN (SELECT COUNT(*) FROM orders) | the function f names orders",
            "CREATE TRIGGER t BEFORE INSERT ON orders FOR EACH ROW SET NEW.total = (SELECT MAX(total) FROM orders) | the trigger t names orders",
            "PREPARE s FROM 'SELECT * FROM orders' | SQL PREPARE of this statement is not supported across shards",
            "PREPARE s FROM @text | its text comes from a user variable",
    })
    void objectsAndPreparedTextOverRowsElsewhereAreRefused(String sql, String fragment) {
        Plan plan = router.analyze(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT, new Analysis()).plan();
        assertThat(plan).isInstanceOf(Plan.Refuse.class);
        assertThat(((Plan.Refuse) plan).message()).contains(fragment);
    }

    @Test
    void objectsOverWhatEveryShardHoldsAreCreatedEverywhere() {
        assertThat(shards("CREATE VIEW v AS SELECT name FROM products")).isEqualTo(ALL);
        assertThat(shards("CREATE TRIGGER t BEFORE INSERT ON orders FOR EACH ROW SET NEW.qty = NEW.qty + 1"))
                .isEqualTo(ALL);
        assertThat(shards("PREPARE s FROM 'SELECT 1'")).isEqualTo("shard 0");
        // A procedure is created everywhere whatever it names: each CALL decides where it can run.
        assertThat(shards("CREATE PROCEDURE p() SELECT * FROM orders")).isEqualTo(ALL);
    }

    @Test
    void aCachedRefusalCarriesNoOtherSessionsValues() {
        router.analyze("SELECT COUNT(*) + 12345 FROM orders".getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT,
                new Analysis());
        Analysis second = router.analyze("SELECT COUNT(*) + 67890 FROM orders".getBytes(StandardCharsets.UTF_8),
                SqlMode.DEFAULT, new Analysis());
        assertThat(second.cached()).isTrue();
        Route route = new Route(second.plan());
        assertThat(route.refusal).contains("COUNT(*) + ?").doesNotContain("12345").doesNotContain("67890");
    }

    private record Route(String refusal) {
        Route(Plan plan) {
            this(((Plan.Evaluate) ((Plan.Route) plan).several()).mergeRefusal());
        }
    }

    @Test
    void mergedAggregatesAskTheShardsForEveryRowWhateverSqlSelectLimitSays() {
        assertThat(explain("SELECT status, COUNT(*) FROM orders GROUP BY status", SqlMode.DEFAULT).plan())
                .endsWith("GROUP BY status LIMIT 18446744073709551615");
        assertThat(explain("SELECT status, COUNT(*) FROM orders GROUP BY status LIMIT 2, 3", SqlMode.DEFAULT).plan())
                .endsWith("GROUP BY status LIMIT 18446744073709551615");
        assertThat(explain("SELECT DISTINCT status FROM orders FOR UPDATE", SqlMode.DEFAULT).plan())
                .contains("LIMIT 18446744073709551615 FOR UPDATE");
    }

    @Test
    void stringKeysAreDecodedAsTheServerReadsThem() {
        Router tenants = new Router(TestTopologies.fourShards());
        ShardKey utf8 = key(tenants, "SELECT * FROM accounts WHERE tenant = 'caf\u00e9'".getBytes(StandardCharsets.UTF_8),
                StandardCharsets.UTF_8);
        // A latin1 client sends é as one byte: MySQL's latin1 is cp1252.
        byte[] latin1 = "SELECT * FROM accounts WHERE tenant = 'caf\u00e9'".getBytes(java.nio.charset.Charset.forName("windows-1252"));
        assertThat(key(tenants, latin1, java.nio.charset.Charset.forName("windows-1252"))).isEqualTo(utf8);
        // An introducer names the literal's own character set, whatever the connection's.
        byte[] introduced = RouterBytes.concat("SELECT * FROM accounts WHERE tenant = _latin1'caf".getBytes(StandardCharsets.US_ASCII),
                new byte[] {(byte) 0xE9, '\''});
        assertThat(key(tenants, introduced, StandardCharsets.UTF_8)).isEqualTo(utf8);
        // A character set Java cannot read: the key does not narrow the statement.
        assertThat(key(tenants, latin1, null)).isNull();
    }

    private static ShardKey key(Router router, byte[] sql, java.nio.charset.Charset charset) {
        Analysis a = router.analyze(sql, SqlMode.DEFAULT, new Analysis());
        return new LiteralParameters().bind(a, charset).key(0, KeyType.STRING);
    }

    /** Byte arrays joined, for statements with bytes of another character set. */
    private static final class RouterBytes {
        static byte[] concat(byte[] a, byte[] b) {
            byte[] out = java.util.Arrays.copyOf(a, a.length + b.length);
            System.arraycopy(b, 0, out, a.length, b.length);
            return out;
        }
    }

    @Test
    void theGateRefusesAMultiShardPlanWithoutRules() {
        PlanGate gate = new PlanGate(topology);
        Plan.Route unproven = Plan.Route.of(io.cleave.router.sql.ast.StatementKind.SELECT, new Target.AllShards(),
                Plan.Access.READ, new Plan.Merge(new SqlTemplate.Original(),
                new MergeSpec(0, List.of(), null, false, null, null), java.util.Set.of()));
        Plan admitted = gate.admit(unproven);
        assertThat(((Plan.Route) admitted).several()).isInstanceOf(Plan.Refuse.class);
        assertThat(((Plan.Refuse) ((Plan.Route) admitted).several()).message()).contains("no rule proves its merge exact");
    }
}
