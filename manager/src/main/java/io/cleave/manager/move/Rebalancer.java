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
 * Plans moves that even out each keyspace over the shards, by rows or bytes: again and again the
 * fullest shard gives the emptiest half the difference, as whole key ranges or bucket runs, or a
 * part of one split off its upper end (keys assumed evenly spread within a range, rows evenly
 * spread over a shard's buckets). Stops when the shards are within a tenth of the average.
 */
final class Rebalancer {

    private static final int MAX_STEPS_PER_KEYSPACE = 16;

    private final ShardLinks shards;
    private final MapUpdates maps;
    private final ShardSizes sizes;

    Rebalancer(ShardLinks shards, MapUpdates maps) {
        this.shards = shards;
        this.maps = maps;
        this.sizes = new ShardSizes(shards, maps);
    }

    /** A unit of keys on one shard with its load; {@code moved} once a step of this plan took it. */
    private static final class Unit {
        KeySet keys;
        int shard;
        long load;
        boolean moved;

        Unit(KeySet keys, int shard, long load) {
            this.keys = keys;
            this.shard = shard;
            this.load = load;
        }
    }

    RebalancePlan plan(boolean byBytes) throws SQLException {
        ShardMap map = maps.current();
        List<RebalancePlan.Step> steps = new ArrayList<>();
        List<RebalancePlan.Load> before = new ArrayList<>();
        List<RebalancePlan.Load> after = new ArrayList<>();
        for (Keyspace ks : maps.topology().keyspaces().values().stream().sorted(Comparator.comparing(Keyspace::name)).toList()) {
            ShardFunction f = map.function(ks.name(), ks.function());
            List<Unit> units = new ArrayList<>();
            for (ShardSizes.Span span : ShardSizes.spans(ks.name(), f, map)) {
                long[] size = sizes.size(ks, span, false);
                units.add(new Unit(span.keys(), span.shard(), Math.max(0, byBytes ? size[1] : size[0])));
            }
            long[] loads = loads(units, map.shardCount());
            before.add(new RebalancePlan.Load(ks.name(), toList(loads)));
            for (int i = 0; i < MAX_STEPS_PER_KEYSPACE; i++) {
                RebalancePlan.Step step = step(ks, units, loads, byBytes);
                if (step == null) {
                    break;
                }
                steps.add(step);
                loads = loads(units, map.shardCount());
            }
            after.add(new RebalancePlan.Load(ks.name(), toList(loads)));
        }
        return new RebalancePlan(byBytes ? "bytes" : "rows", steps, before, after, List.of());
    }

    private RebalancePlan.Step step(Keyspace ks, List<Unit> units, long[] loads, boolean byBytes) throws SQLException {
        int full = 0;
        int empty = 0;
        long total = 0;
        for (int s = 0; s < loads.length; s++) {
            full = loads[s] > loads[full] ? s : full;
            empty = loads[s] < loads[empty] ? s : empty;
            total += loads[s];
        }
        long gap = loads[full] - loads[empty];
        if (gap <= Math.max(1, total / loads.length / 10)) {
            return null;
        }
        long want = gap / 2;
        Unit best = null;
        for (Unit u : units) {
            if (u.shard == full && !u.moved && u.load > 0 && (best == null || u.load > best.load)) {
                best = u;
            }
        }
        if (best == null) {
            return null;
        }
        Unit moving = best;
        if (best.load > want) {
            KeySet part = part(ks, best, want);
            if (part != null && !part.equals(best.keys)) {
                long partLoad = Math.max(1, (long) ((double) best.load * width(part) / width(bounded(ks, best))));
                moving = new Unit(part, full, partLoad);
                best.keys = rest(best.keys, part);
                best.load -= partLoad;
                units.add(moving);
            }
        }
        if (moving.load >= gap) {
            // Moving it would only turn the imbalance around.
            return null;
        }
        moving.shard = empty;
        moving.moved = true;
        return new RebalancePlan.Step(ks.name(), moving.keys.toString(), full, empty, moving.load, "shard " + full
                + " holds " + loads[full] + (byBytes ? " bytes" : " rows") + " of " + ks.name() + ", shard " + empty
                + " " + loads[empty] + ": about " + moving.load + " move");
    }

    /** The upper part of a unit worth about {@code want}. */
    private KeySet part(Keyspace ks, Unit u, long want) throws SQLException {
        KeySet keys = bounded(ks, u);
        long width = width(keys);
        long n = Math.max(1, Math.round((double) width * want / u.load));
        if (n >= width) {
            return u.keys;
        }
        if (keys instanceof KeySet.Buckets b) {
            return new KeySet.Buckets((int) (b.to() - n + 1), b.to());
        }
        KeySet.Keys k = (KeySet.Keys) keys;
        return new KeySet.Keys(k.to() - n + 1, ((KeySet.Keys) u.keys).to());
    }

    /** What is left of {@code whole} when its upper part {@code part} goes. */
    private static KeySet rest(KeySet whole, KeySet part) {
        if (whole instanceof KeySet.Buckets b) {
            return new KeySet.Buckets(b.from(), ((KeySet.Buckets) part).from() - 1);
        }
        return new KeySet.Keys(((KeySet.Keys) whole).from(), ((KeySet.Keys) part).from() - 1);
    }

    /** An open-ended key range ends at the largest key stored. */
    private KeySet bounded(Keyspace ks, Unit u) throws SQLException {
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

    private static long width(KeySet keys) {
        if (keys instanceof KeySet.Buckets b) {
            return b.to() - b.from() + 1;
        }
        KeySet.Keys k = (KeySet.Keys) keys;
        return k.to() == Long.MAX_VALUE ? Long.MAX_VALUE : k.to() - k.from() + 1;
    }

    private static long[] loads(List<Unit> units, int shards) {
        long[] loads = new long[shards];
        for (Unit u : units) {
            loads[u.shard] += u.load;
        }
        return loads;
    }

    private static List<Long> toList(long[] a) {
        List<Long> out = new ArrayList<>();
        for (long v : a) {
            out.add(v);
        }
        return out;
    }
}
