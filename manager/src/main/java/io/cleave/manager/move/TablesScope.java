package io.cleave.manager.move;

import io.cleave.proxy.cutover.Cutover;
import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * Whole tables moving from one shard (or an attached server) to where their new rules put the
 * rows: split by key over the keyspace's shards, copied to every shard, or onto one home. Until the
 * cutover the tables' rules name the source, so no statement reads the targets' copies; the
 * cutover publishes the new rules (and, for a scale, the new shard count) in one map version.
 */
final class TablesScope implements MoveScope {

    private final MoveRecord r;
    private final MoveEnvironment env;

    TablesScope(MoveRecord r, MoveEnvironment env) {
        this.r = r;
        this.env = env;
    }

    @Override
    public List<Integer> targets() {
        return r.targets;
    }

    private boolean sourceIsLocal() {
        return r.source < env.maps().current().shardCount();
    }

    @Override
    public void prepare() throws SQLException {
        List<Integer> local = new ArrayList<>(r.targets);
        if (sourceIsLocal()) {
            local.add(r.source);
        }
        for (int shard : local) {
            // A table sharded on a hash keyspace gets ghosts (filtered by bucket) on its old home.
            try (Connection c = env.shards().open(shard); Statement s = c.createStatement()) {
                Sql.installBucketFunction(s);
            }
        }
        List<String> names = names();
        ShardMap map = env.maps().current();
        if (!names.stream().allMatch(n -> Long.valueOf(r.id).equals(map.movingTables().get(n.toLowerCase())))) {
            env.maps().update(m -> m.withMovingTables(names, r.id));
        }
    }

    private List<String> names() {
        List<String> out = new ArrayList<>();
        for (TableProgress t : r.tables) {
            out.add(t.table);
        }
        return out;
    }

    @Override
    public Placement placement(TableShape shape) {
        TableRule rule = shape.table.rule.toRule(shape.table.table);
        if (rule instanceof TableRule.Sharded s) {
            ShardMap map = env.maps().current();
            ShardFunction f = map.function(s.keyspace(), env.maps().topology().keyspace(s.keyspace()).function());
            return new Placement.ByKey(shape.table.toString(), s.keyspace(), f, map, r.source);
        }
        if (rule instanceof TableRule.Unsharded u) {
            return new Placement.Whole(new int[] {u.homeShard()});
        }
        return new Placement.Whole(r.targets.stream().mapToInt(Integer::intValue).toArray());
    }

    @Override
    public Cutover.Scope cutoverScope() {
        return new Cutover.Scope.Source();
    }

    @Override
    public ShardMap flip(ShardMap m) {
        ShardMap next = m;
        for (TableProgress t : r.tables) {
            next = next.withRule(t.rule.toRule(t.table));
        }
        for (java.util.Map.Entry<String, RuleSpec> e : r.alsoRules.entrySet()) {
            next = next.withRule(e.getValue().toRule(e.getKey()));
        }
        if (r.shardCountAfter > 0 && next.shardCount() != r.shardCountAfter) {
            next = next.withShardCount(r.shardCountAfter);
        }
        if (!sourceIsLocal()) {
            return next;
        }
        for (String keyspace : shardedKeyspaces()) {
            for (KeySet keys : notOn(next, keyspace, r.source)) {
                next = next.withGhost(new Ghost(keyspace, keys, r.source, r.id));
            }
        }
        return next;
    }

    private List<String> shardedKeyspaces() {
        List<String> out = new ArrayList<>();
        for (TableProgress t : r.tables) {
            if (t.rule.toRule(t.table) instanceof TableRule.Sharded s && !out.contains(s.keyspace())) {
                out.add(s.keyspace());
            }
        }
        return out;
    }

    /**
     * The keys of {@code keyspace} that {@code shard} does not hold, as bucket runs or ranges: its
     * rows of them are ghosts until cleanup deletes them (none when it holds no key at all: then no
     * statement over the keyspace reaches it).
     */
    private List<KeySet> notOn(ShardMap map, String keyspace, int shard) {
        List<KeySet> out = new ArrayList<>();
        int[] owner = map.buckets(keyspace);
        boolean owns = false;
        for (int o : owner) {
            owns |= o == shard;
        }
        if (!owns) {
            return out;
        }
        ShardFunction f = map.function(keyspace, env.maps().topology().keyspace(keyspace).function());
        if (f instanceof RangeShardFunction ranges) {
            for (int b = 0; b < owner.length; b++) {
                if (owner[b] != shard) {
                    KeyRange range = ranges.ranges().get(b);
                    out.add(new KeySet.Keys(range.from(), range.to()));
                }
            }
            return out;
        }
        if (!(f instanceof HashShardFunction)) {
            throw new IllegalStateException("keyspace " + keyspace + " is neither a range nor a hash keyspace");
        }
        int start = -1;
        for (int b = 0; b <= owner.length; b++) {
            boolean elsewhere = b < owner.length && owner[b] != shard;
            if (elsewhere && start < 0) {
                start = b;
            } else if (!elsewhere && start >= 0) {
                out.add(new KeySet.Buckets(start, b - 1));
                start = -1;
            }
        }
        return out;
    }

    @Override
    public boolean switched(ShardMap map) {
        if (r.shardCountAfter > 0 && map.shardCount() != r.shardCountAfter) {
            return false;
        }
        for (TableProgress t : r.tables) {
            if (!t.rule.toRule(t.table).equals(map.rules().get(t.table.toLowerCase()))) {
                return false;
            }
        }
        return true;
    }

    @Override
    public void cleanUp(Connection source, List<TableShape> shapes, RowDeleter deleter, RowDeleter.ChunkListener listener)
            throws SQLException, InterruptedException {
        if (r.keepSource) {
            return;
        }
        for (TableShape shape : shapes) {
            TableRule rule = shape.table.rule.toRule(shape.table.table);
            if (rule instanceof TableRule.Sharded) {
                deleter.deleteLeaving(source, shape, listener);
            } else if (rule instanceof TableRule.Unsharded) {
                deleter.deleteAll(source, shape.table, listener);
            }
            // A reference table keeps its rows on its old home: that is one of its copies now.
        }
    }

    @Override
    public ShardMap ended(ShardMap current) {
        return current.withoutGhosts(r.id).withoutMovingTables(r.id);
    }

    @Override
    public boolean leftInMap(ShardMap map) {
        return map.ghosts().stream().anyMatch(g -> g.moveId() == r.id) || map.movingTables().containsValue(r.id);
    }
}
