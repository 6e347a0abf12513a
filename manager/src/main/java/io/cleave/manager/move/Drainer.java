package io.cleave.manager.move;

import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Plans what takes every key and table off the shards a scale removes: each key range or bucket
 * run they hold goes to the remaining shard holding the fewest rows (counting what this plan already
 * sent there), each table homed on them likewise. Views homed there only change their rule (they
 * hold no rows, and every shard has them).
 */
final class Drainer {

    /** One step: keys of a keyspace, or a table (or view) homed on a leaving shard. */
    sealed interface Step permits KeyStep, TableStep {
    }

    record KeyStep(String keyspace, String keys, int from, int to) implements Step {
    }

    /** {@code table} homed on {@code from} goes to {@code to}; {@code rows} false for a view. */
    record TableStep(String table, int from, int to, boolean rows) implements Step {
    }

    private final ShardLinks shards;
    private final MapUpdates maps;

    Drainer(ShardLinks shards, MapUpdates maps) {
        this.shards = shards;
        this.maps = maps;
    }

    List<Step> plan(int keep) throws SQLException {
        ShardMap map = maps.current();
        ShardSizes sizes = new ShardSizes(shards, maps);
        long[] load = new long[keep];
        List<ShardsReport.ShardSize> perShard = sizes.report(false, List.of()).shards();
        for (ShardsReport.ShardSize s : perShard) {
            if (s.shard() < keep) {
                load[s.shard()] = Math.max(0, s.rows());
            }
        }
        List<Step> steps = new ArrayList<>();
        for (Keyspace ks : maps.topology().keyspaces().values().stream().sorted(Comparator.comparing(Keyspace::name)).toList()) {
            ShardFunction f = map.function(ks.name(), ks.function());
            for (ShardSizes.Span span : ShardSizes.spans(ks.name(), f, map)) {
                if (span.shard() < keep) {
                    continue;
                }
                int to = lightest(load);
                load[to] += Math.max(0, sizes.size(ks, span, false)[0]);
                steps.add(new KeyStep(ks.name(), span.keys().toString(), span.shard(), to));
            }
        }
        for (TableRule rule : maps.routing().tables().values()) {
            if (rule instanceof TableRule.Unsharded u && u.homeShard() >= keep && !map.isAttached(u.homeShard())) {
                int to = lightest(load);
                boolean rows;
                try (Connection c = shards.open(u.homeShard())) {
                    rows = !Catalog.find(c, u.table()).isEmpty();
                }
                steps.add(new TableStep(u.table(), u.homeShard(), to, rows));
                load[to]++;
            }
        }
        return steps;
    }

    private static int lightest(long[] load) {
        int best = 0;
        for (int s = 1; s < load.length; s++) {
            if (load[s] < load[best]) {
                best = s;
            }
        }
        return best;
    }
}
