package io.cleave.manager.move;

import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Plans moves that even out each keyspace over the shards, by rows or bytes: it measures each key range or bucket
 * run on its shard and leaves the steps to {@link RebalanceSteps}.
 */
final class Rebalancer {

    private final ShardLinks shards;
    private final MapUpdates maps;
    private final ShardSizes sizes;

    Rebalancer(ShardLinks shards, MapUpdates maps) {
        this.shards = shards;
        this.maps = maps;
        this.sizes = new ShardSizes(shards, maps);
    }

    RebalancePlan plan(boolean byBytes) throws SQLException {
        ShardMap map = maps.current();
        List<RebalancePlan.Step> steps = new ArrayList<>();
        List<RebalancePlan.Load> before = new ArrayList<>();
        List<RebalancePlan.Load> after = new ArrayList<>();
        for (Keyspace ks : maps.topology().keyspaces().values().stream().sorted(Comparator.comparing(Keyspace::name)).toList()) {
            ShardFunction f = map.function(ks.name(), ks.function());
            List<RebalanceSteps.Unit> units = new ArrayList<>();
            for (ShardSizes.Span span : ShardSizes.spans(ks.name(), f, map)) {
                long[] size = sizes.size(ks, span, false);
                units.add(new RebalanceSteps.Unit(span.keys(), span.shard(), Math.max(0, byBytes ? size[1] : size[0])));
            }
            RebalanceSteps planning = new RebalanceSteps(ks.name(), units, map.shardCount(), byBytes,
                    u -> bounded(ks, u));
            before.add(new RebalancePlan.Load(ks.name(), toList(planning.loads())));
            steps.addAll(planning.plan());
            after.add(new RebalancePlan.Load(ks.name(), toList(planning.loads())));
        }
        return new RebalancePlan(byBytes ? "bytes" : "rows", steps, before, after, List.of());
    }

    /** An open-ended key range ends at the largest key stored. */
    private KeySet bounded(Keyspace ks, RebalanceSteps.Unit u) throws SQLException {
        if (!(u.keys instanceof KeySet.Keys k) || k.to() != Long.MAX_VALUE) {
            return u.keys;
        }
        long max = k.from();
        try (Connection c = shards.open(u.shard)) {
            for (TableRule rule : maps.routing().tables().values()) {
                if (rule instanceof TableRule.Sharded s && s.keyspace().equals(ks.name())) {
                    max = Math.max(max, maxKey(c, s));
                }
            }
        }
        return new KeySet.Keys(k.from(), Math.max(k.from(), max));
    }

    private static long maxKey(Connection c, TableRule.Sharded s) throws SQLException {
        long max = Long.MIN_VALUE;
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery("SELECT TABLE_SCHEMA FROM"
                + " information_schema.TABLES WHERE LOWER(TABLE_NAME) = LOWER('" + s.table().replace("'", "''") + "')"
                + " AND TABLE_SCHEMA NOT IN ('mysql', 'sys', 'performance_schema', 'information_schema', 'cleave')")) {
            List<String> schemas = new ArrayList<>();
            while (rs.next()) {
                schemas.add(rs.getString(1));
            }
            for (String schema : schemas) {
                try (Statement q = c.createStatement(); ResultSet m = q.executeQuery("SELECT MAX(" + Sql.quote(s.column())
                        + ") FROM " + Sql.quote(schema) + "." + Sql.quote(s.table()))) {
                    if (m.next() && m.getObject(1) != null) {
                        max = Math.max(max, m.getLong(1));
                    }
                }
            }
        }
        return max;
    }

    private static List<Long> toList(long[] a) {
        List<Long> out = new ArrayList<>();
        for (long v : a) {
            out.add(v);
        }
        return out;
    }
}
