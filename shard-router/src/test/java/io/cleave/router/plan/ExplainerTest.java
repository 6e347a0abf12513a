package io.cleave.router.plan;

import io.cleave.router.sql.lex.SqlMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/** The shards an explanation names, on the 4-shard test topology (warehouses 1-25, 26-50, 51-75, 76- on shards 0..3). */
class ExplainerTest {

    private final Explainer explainer = new Explainer(new Router(TestTopologies.fourShards()));

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', value = {
            "SELECT w_name FROM warehouse WHERE w_id = 30 | shard 1",
            "SELECT w_name FROM warehouse WHERE w_id IN (3, 60) | shards 0, 2",
            "SELECT COUNT(*) FROM customer | shards 0, 1, 2, 3 (all)",
            "UPDATE warehouse SET w_ytd = 0 | shards 0, 1, 2, 3 (all)",
            "INSERT INTO warehouse (w_id, w_name) VALUES (1, 'a'), (80, 'b'), (2, 'c') | shard 0 (rows 1, 3), shard 3 (row 2)",
            "INSERT INTO warehouse (w_id, w_name) VALUES (?, 'a') | depends on the values bound to its parameters (?)",
            "SELECT w_name FROM warehouse WHERE w_id = ? | depends on the values bound to its parameters (?)",
            "SELECT * FROM settings | shard 1",
            "SELECT i_name FROM item WHERE i_id = 1 | any one shard (the one the session already uses, else the next in turn)",
            "SET autocommit = 0 | none: a session statement, kept by the proxy and replayed on the shards the session uses",
            "SELECT LAST_INSERT_ID() | none: answered by the proxy",
            "SELECT c FROM sbtest1 WHERE k = (SELECT MAX(k) FROM sbtest2) | evaluated on shard 0 over the rows of [sbtest1 (all shards), sbtest2 (all shards)] gathered from the shards",
            "SELECT o.o_id FROM orders o JOIN item_price ip ON ip.ip_i_id = o.o_id WHERE o.o_w_id = 3 AND ip.ip_i_id = 1 | evaluated on shard 0 over the rows of [orders (all shards), item_price (all shards)] gathered from the shards",
            "SELECT o.o_id FROM orders o JOIN item_price ip ON ip.ip_i_id = o.o_id WHERE o.o_w_id = 3 AND ip.ip_i_id = 1 FOR UPDATE | none: join between orders (sharded by o_w_id) and item_price (sharded by ip_i_id) is not co-located on warehouse/item (not joined on equal sharding keys): not supported across shards",
            "SELECT GROUP_CONCAT(w_name) FROM warehouse WHERE w_id IN (1, 90) | evaluated on shard 0 over the rows of [warehouse (all shards)] gathered from the shards",
            "SELECT GROUP_CONCAT(w_name) FROM warehouse WHERE w_id IN (1, 9) | shard 0",
            "LOCK TABLES warehouse WRITE | none: accepted by the proxy, locks nothing (the tables' rows are on several shards)",
    })
    void namesTheShardsAStatementReaches(String sql, String shards) {
        Explainer.Explanation e = explainer.explain(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT,
                TestTopologies.map(TestTopologies.fourShards()));
        assertThat(e.shards()).isEqualTo(shards);
        assertThat(e.plan()).isNotBlank();
    }
}
