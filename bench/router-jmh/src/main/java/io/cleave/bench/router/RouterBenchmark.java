package io.cleave.bench.router;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.LiteralParameters;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.Resolution;
import io.cleave.router.plan.Router;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.TargetResolver;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the proxy spends per statement before a byte goes to a shard: analysis (lex, digest, and
 * on a plan-cache miss parse and plan) plus routing (the statement's values bound, its target
 * resolved to shards under the shard map, and for a merged read the shards' text rendered).
 * {@code cached}: the statement's shape was seen before, as in any steady OLTP workload.
 * {@code cold}: a router that keeps no plans, so every statement is parsed and planned.
 *
 * <p>The topology is config/tpcc.yaml's and config/sysbench.yaml's: 4 shards, warehouses by range,
 * sbtestN hashed by id, item a reference table.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class RouterBenchmark {

    /** A handful of representative statements, with literal values as a text-protocol client sends them. */
    private static final Map<String, String> STATEMENTS = Map.of(
            "tpcc_new_order_line", "INSERT INTO order_line (ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id,"
                    + " ol_supply_w_id, ol_delivery_d, ol_quantity, ol_amount, ol_dist_info) VALUES (3001, 4, 57, 1,"
                    + " 52311, 57, NULL, 5, 312.50, 'abcdefghijklmnopqrstuvwx')",
            "tpcc_stock_for_update", "SELECT s_quantity, s_data, s_dist_04 FROM stock WHERE s_i_id = 52311"
                    + " AND s_w_id = 57 FOR UPDATE",
            "tpcc_customer_by_name", "SELECT c_id FROM customer WHERE c_w_id = 57 AND c_d_id = 4"
                    + " AND c_last = 'BARBARBAR' ORDER BY c_first",
            "sysbench_point_select", "SELECT c FROM sbtest1 WHERE id=48213",
            "multi_shard_order_limit", "SELECT id, k, c FROM sbtest1 WHERE k BETWEEN 100 AND 200"
                    + " ORDER BY c DESC, id LIMIT 10, 20");

    @Param({"tpcc_new_order_line", "tpcc_stock_for_update", "tpcc_customer_by_name", "sysbench_point_select",
            "multi_shard_order_limit"})
    public String statement;

    private byte[] sql;
    private Router caching;
    private Router planning;
    private TargetResolver resolver;
    private ShardMap map;
    private final Analysis analysis = new Analysis();
    private final LiteralParameters values = new LiteralParameters();

    @Setup(Level.Trial)
    public void setUp() {
        Topology topology = topology();
        caching = new Router(topology);
        planning = new Router(topology, 0);
        resolver = new TargetResolver(topology);
        map = ShardMap.initial(topology, Map.of());
        sql = STATEMENTS.get(statement).getBytes(StandardCharsets.UTF_8);
        route(caching);
        if (!analysis.cached()) {
            route(caching);
        }
    }

    @Benchmark
    public long cached() {
        return route(caching);
    }

    @Benchmark
    public long cold() {
        return route(planning);
    }

    /** Analyzes and routes the statement; returns something derived from the result so nothing is optimized away. */
    private long route(Router router) {
        router.analyze(sql, SqlMode.DEFAULT, analysis);
        values.bind(analysis, StandardCharsets.UTF_8);
        Plan plan = analysis.plan();
        if (plan instanceof Plan.InsertSplit split) {
            long shards = 0;
            for (Plan.InsertRow row : split.rows()) {
                shards += resolver.shardOf(split.keyspace(), row.key(), values, map);
            }
            return shards;
        }
        Plan.Route route = (Plan.Route) plan;
        Resolution resolution = resolver.resolve(route.target(), values, map);
        if (!resolution.isSingle() && route.several() instanceof Plan.Merge merge) {
            return SqlRenderer.render(merge.sql(), analysis, values).length;
        }
        return resolution.isSingle() ? resolution.shard() : resolution.shards().length;
    }

    static Topology topology() {
        Map<String, Keyspace> keyspaces = new LinkedHashMap<>();
        keyspaces.put("warehouse", new Keyspace("warehouse", new RangeShardFunction(List.of(
                new KeyRange(1, 25), new KeyRange(26, 50), new KeyRange(51, 75), new KeyRange(76, Long.MAX_VALUE)))));
        keyspaces.put("sbtest", new Keyspace("sbtest", new HashShardFunction(256, KeyType.INTEGER)));
        Map<String, TableRule> tables = new LinkedHashMap<>();
        String[][] tpcc = {{"warehouse", "w_id"}, {"district", "d_w_id"}, {"customer", "c_w_id"}, {"history", "h_w_id"},
                {"new_orders", "no_w_id"}, {"orders", "o_w_id"}, {"order_line", "ol_w_id"}, {"stock", "s_w_id"}};
        for (String[] t : tpcc) {
            tables.put(t[0], new TableRule.Sharded(t[0], "warehouse", t[1]));
        }
        tables.put("item", new TableRule.Reference("item"));
        for (int i = 1; i <= 16; i++) {
            tables.put("sbtest" + i, new TableRule.Sharded("sbtest" + i, "sbtest", "id"));
        }
        return new Topology(4, keyspaces, tables, 0);
    }
}
