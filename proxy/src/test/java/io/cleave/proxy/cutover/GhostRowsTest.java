package io.cleave.proxy.cutover;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.Router;
import io.cleave.router.plan.SqlTemplate;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class GhostRowsTest {

    private final Topology topology = new Topology(2,
            Map.of("w", new Keyspace("w", new RangeShardFunction(List.of(new KeyRange(1, 100), new KeyRange(101, 200)))),
                    "h", new Keyspace("h", new HashShardFunction(16, KeyType.INTEGER))),
            Map.of("orders", new TableRule.Sharded("orders", "w", "o_w_id"),
                    "order_line", new TableRule.Sharded("order_line", "w", "l_w_id"),
                    "sb", new TableRule.Sharded("sb", "h", "id"),
                    "item", new TableRule.Reference("item")), 0);
    private final Router router = new Router(topology);
    private final ShardMap map = new ShardMap(3, 2, Map.of("w", new int[] {0, 1}, "h", new int[16]))
            .withGhost(new Ghost("w", new KeySet.Keys(1, 50), 1, 7))
            .withGhost(new Ghost("h", new KeySet.Buckets(0, 3), 1, 8));

    @Test
    void aShardWithoutGhostsGetsTheStatementAsPlanned() {
        assertThat(render("SELECT COUNT(*) FROM orders WHERE o_total > 5", 0))
                .isEqualTo(plain("SELECT COUNT(*) FROM orders WHERE o_total > 5"));
    }

    @Test
    void theWhereOfAShardWithGhostsLeavesTheirKeysOut() {
        assertThat(render("SELECT o_id FROM orders WHERE o_total > 5 OR o_id = 1", 1))
                .contains("WHERE (o_total > 5 OR o_id = 1) AND (`orders`.`o_w_id` IS NULL OR `orders`.`o_w_id` NOT BETWEEN 1 AND 50)");
        assertThat(render("SELECT c FROM sb WHERE id BETWEEN 1 AND 1000", 1))
                .contains("(`sb`.`id` IS NULL OR cleave.bucket_of(`sb`.`id`, 16) NOT BETWEEN 0 AND 3)");
    }

    @Test
    void withoutAWhereOneIsAddedAfterTheTablesAndEveryJoinedTableIsFiltered() {
        String sql = render("SELECT o.o_id, l.l_n FROM orders o JOIN order_line l ON o.o_w_id = l.l_w_id ORDER BY o.o_id", 1);
        assertThat(sql).contains("WHERE (`o`.`o_w_id` IS NULL OR `o`.`o_w_id` NOT BETWEEN 1 AND 50) AND"
                + " (`l`.`l_w_id` IS NULL OR `l`.`l_w_id` NOT BETWEEN 1 AND 50)");
        assertThat(sql.indexOf("WHERE")).isLessThan(sql.indexOf("ORDER BY"));
        assertThat(render("UPDATE orders SET o_total = 0", 1))
                .endsWith("SET o_total = 0 WHERE (`orders`.`o_w_id` IS NULL OR `orders`.`o_w_id` NOT BETWEEN 1 AND 50) ");
    }

    @Test
    void aDerivedTableIsFilteredInsideEachBlockForTheTablesItReads() {
        String sql = render("SELECT COUNT(*) FROM (SELECT o_id FROM orders WHERE o_w_id = o_w_id) d", 1);
        assertThat(sql).contains("FROM (SELECT o_id FROM orders WHERE (o_w_id = o_w_id) AND (`orders`.`o_w_id` IS NULL"
                + " OR `orders`.`o_w_id` NOT BETWEEN 1 AND 50) ) d");
        assertThat(sql.indexOf("NOT BETWEEN")).as("once, inside").isEqualTo(sql.lastIndexOf("NOT BETWEEN"));
        String nested = render("SELECT COUNT(*) FROM (SELECT x.o_id FROM (SELECT o_id FROM orders) x JOIN order_line l"
                + " ON l.l_o_id = x.o_id) d", 1);
        assertThat(nested).contains("(SELECT o_id FROM orders WHERE (`orders`.`o_w_id` IS NULL OR `orders`.`o_w_id` NOT"
                + " BETWEEN 1 AND 50) ) x").contains("ON l.l_o_id = x.o_id WHERE (`l`.`l_w_id` IS NULL");
        String union = render("SELECT COUNT(*) FROM (SELECT id FROM sb UNION ALL SELECT id FROM sb WHERE id > 5) u", 1);
        assertThat(union).contains("FROM sb WHERE (`sb`.`id` IS NULL OR cleave.bucket_of(`sb`.`id`, 16) NOT BETWEEN 0 AND 3)"
                + " UNION ALL").contains("WHERE (id > 5) AND (`sb`.`id` IS NULL");
        assertThat(render("SELECT COUNT(*) FROM item", 1)).isEqualTo(plain("SELECT COUNT(*) FROM item"));
    }

    @Test
    void ddlOnAMovingTableIsRefusedWithTheMove() {
        Analysis a = analyze("ALTER TABLE orders ADD COLUMN x INT");
        assertThat(MovingTables.ddlRefusal(a.plan(), a, map, topology)).contains("orders is being moved (move 7, keys 1-50");
        Analysis other = analyze("ALTER TABLE item ADD COLUMN x INT");
        assertThat(MovingTables.ddlRefusal(other.plan(), other, map, topology)).isNull();
        Analysis select = analyze("SELECT 1 FROM orders");
        assertThat(MovingTables.ddlRefusal(select.plan(), select, map, topology)).isNull();
    }

    private String render(String sql, int shard) {
        Analysis a = analyze(sql);
        SqlTemplate template = a.plan() instanceof Plan.Route r && r.several() instanceof Plan.Merge m ? m.sql()
                : new SqlTemplate.Original();
        byte[] out = GhostRows.render(template, a, values(a), shard, map, topology);
        return out == null ? null : new String(out, StandardCharsets.UTF_8);
    }

    private String plain(String sql) {
        Analysis a = analyze(sql);
        SqlTemplate template = a.plan() instanceof Plan.Route r && r.several() instanceof Plan.Merge m ? m.sql()
                : new SqlTemplate.Original();
        return new String(io.cleave.router.plan.SqlRenderer.render(template, a, values(a)), StandardCharsets.UTF_8);
    }

    private static ParameterValues values(Analysis a) {
        return new io.cleave.router.plan.LiteralParameters().bind(a, StandardCharsets.UTF_8);
    }

    private Analysis analyze(String sql) {
        return router.analyze(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT, new Analysis());
    }
}
