package io.cleave.router.plan;

import io.cleave.router.keyspace.KeyType;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.unique.UniqueIndex;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What plans tell the proxy about a statement's columns for global unique keys ({@link UniqueProbe}),
 * and what EXPLAIN says of the lookups, over the shop topology (orders sharded by cust_id, whose id
 * is such a key).
 */
class UniqueProbeTest {

    private final Router router = new Router(CrossShardAnswersTest.shop());

    private Plan plan(String sql) {
        return router.analyze(sql.getBytes(StandardCharsets.UTF_8), SqlMode.DEFAULT, new Analysis()).plan();
    }

    private UniqueProbe probe(String sql) {
        return ((Plan.Route) plan(sql)).probe();
    }

    @Test
    void equalitiesAndInListsOfOneTableAreKept() {
        UniqueProbe p = probe("SELECT * FROM orders WHERE id = 5 AND status = 'new' AND cust_id IN (1, 2)");
        assertThat(p.table()).isEqualTo("orders");
        assertThat(p.equalities()).containsOnlyKeys("id", "status", "cust_id");
        assertThat(p.equalities().get("cust_id")).hasSize(2);
        assertThat(p.shardingKeys()).hasSize(2);
        assertThat(p.singleTable()).isTrue();
        assertThat(probe("SELECT * FROM orders WHERE id = 5 OR qty = 2").equalities()).isEmpty();
    }

    @Test
    void updatesTellWhatTheyAssignAndSetStatementsAreMarked() {
        UniqueProbe p = probe("UPDATE orders SET id = 7, status = NULL, qty = qty + 1 WHERE cust_id = 3");
        assertThat(p.assigned()).containsOnlyKeys("id", "status", "qty");
        assertThat(p.assigned().get("id")).isInstanceOf(KeyValue.SlotValue.class);
        assertThat(p.assigned().get("qty")).isNull();
        assertThat(p.assignedNull()).containsExactly("status");
        assertThat(p.shardingKeys()).hasSize(1);
        assertThat(probe("INSERT INTO orders SET cust_id = 3, id = 9").insertSet()).isTrue();
        UniqueProbe joined = probe("UPDATE orders o JOIN customers c ON c.id = o.cust_id SET o.id = 1 WHERE c.id = 2");
        assertThat(joined.singleTable()).isFalse();
        assertThat(probe("DELETE FROM orders WHERE id IN (1, 2)").equalities().get("id")).hasSize(2);
        assertThat(((Plan.Route) plan("SELECT * FROM customers c JOIN orders o ON o.cust_id = c.id WHERE o.id = 1")).probe())
                .isNull();
    }

    @Test
    void anAlterAddingAUniqueKeyWithoutTheShardingColumnRunsWhenItCanBeUndoneLosingNothing() {
        // The proxy builds the lookup from the rows as for CREATE UNIQUE INDEX (GlobalUniqueKeyAlterIT).
        assertThat(plan("ALTER TABLE orders ADD UNIQUE KEY by_status (status, qty)")).isInstanceOf(Plan.Route.class);
        assertThat(plan("ALTER TABLE orders ADD CONSTRAINT c1 UNIQUE (`status`)")).isInstanceOf(Plan.Route.class);
        assertThat(plan("ALTER TABLE orders ADD UNIQUE (status), ADD KEY (qty), ALGORITHM=INPLACE"))
                .isInstanceOf(Plan.Route.class);
        assertThat(plan("CREATE UNIQUE INDEX s ON orders (status)")).isInstanceOf(Plan.Route.class);
        assertThat(plan("ALTER TABLE orders ADD UNIQUE KEY with_key (status, cust_id)")).isInstanceOf(Plan.Route.class);
        assertThat(plan("ALTER TABLE orders ADD COLUMN note VARCHAR(10), ADD KEY (status)")).isInstanceOf(Plan.Route.class);
        assertThat(plan("ALTER TABLE products ADD UNIQUE KEY (name)")).isInstanceOf(Plan.Route.class);
        // A column added with it could hold clients' writes by the time the rows turn out to break the key.
        assertThat(plan("ALTER TABLE orders ADD COLUMN note VARCHAR(10), ADD UNIQUE KEY s (status)"))
                .isInstanceOf(Plan.Refuse.class).extracting(p -> ((Plan.Refuse) p).message()).asString()
                .contains("adds the unique key s (status)").contains("'ADD COLUMN note VARCHAR(10)'");
        assertThat(plan("ALTER TABLE orders ADD UNIQUE (status), ADD UNIQUE (qty)")).isInstanceOf(Plan.Refuse.class)
                .extracting(p -> ((Plan.Refuse) p).message()).asString().contains("'ADD UNIQUE (qty)' is the second");
        assertThat(plan("ALTER TABLE orders DROP KEY x, ADD PRIMARY KEY (id)")).isInstanceOf(Plan.Refuse.class)
                .extracting(p -> ((Plan.Refuse) p).message()).asString().contains("'DROP KEY x'");
    }

    @Test
    void explainNamesTheLookupReadOrClaimedFirst() {
        UniqueIndex byId = new UniqueIndex("shop", "orders", "PRIMARY", List.of("id"), List.of(KeyType.INTEGER), "cust_id",
                UniqueIndex.lookupName("shop", "orders", "PRIMARY"), 4);
        Explainer explainer = new Explainer(router);
        var map = io.cleave.router.shardmap.ShardMap.initial(router.topology(), Map.of());
        String read = explainer.explain("SELECT * FROM orders WHERE id = 5".getBytes(StandardCharsets.UTF_8),
                SqlMode.DEFAULT, map, (schema, table) -> table.equals("orders") ? List.of(byId) : List.of(), "shop").shards();
        assertThat(read).startsWith("lookup by unique key PRIMARY in cleave.u_shop_orders_primary on shard(s) ")
                .endsWith("first, then only the shards of the keys it finds; without it: shards 0, 1, 2, 3 (all)");
        String insert = explainer.explain("INSERT INTO orders (id, cust_id) VALUES (5, 1)".getBytes(StandardCharsets.UTF_8),
                SqlMode.DEFAULT, map, (schema, table) -> List.of(byId), "shop").shards();
        assertThat(insert).startsWith("each row's value of unique key PRIMARY (cleave.u_shop_orders_primary, on shards"
                + " 0-3) is claimed in its lookup first (one shard per value), then the rows go to: shard ");
        assertThat(explainer.explain("INSERT INTO orders VALUES (5, 1)".getBytes(StandardCharsets.UTF_8),
                SqlMode.DEFAULT, map).shards()).as("without a column list").startsWith("each row's by its sharding key");
        assertThat(explainer.explain("SELECT * FROM orders WHERE id = 5".getBytes(StandardCharsets.UTF_8),
                SqlMode.DEFAULT, map).shards()).isEqualTo("shards 0, 1, 2, 3 (all)");
    }
}
