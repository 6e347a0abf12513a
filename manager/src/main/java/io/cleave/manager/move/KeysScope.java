package io.cleave.manager.move;

import io.cleave.proxy.cutover.Cutover;
import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** Keys of a keyspace moving from one shard to another, in every table of the keyspace. */
final class KeysScope implements MoveScope {

    private final MoveRecord r;
    private final MoveEnvironment env;
    private final ShardFunction configured;
    private final ShardFunction function;
    private final KeySet keys;

    KeysScope(MoveRecord r, MoveEnvironment env) {
        this.r = r;
        this.env = env;
        this.configured = env.maps().topology().keyspace(r.keyspace).function();
        this.function = env.maps().current().function(r.keyspace, configured);
        this.keys = KeySet.parse(r.keys, function);
    }

    @Override
    public List<Integer> targets() {
        return List.of(r.target);
    }

    /**
     * Takes the keyspace's tables as they are when the move starts, not as they were when it was
     * planned: a {@code shard-table} queued before it may have put another table on the keyspace
     * since, and that table's rows of the moving keys must move too (left behind, no read by key
     * finds them). Moves run one at a time, so none joins while this one runs.
     */
    @Override
    public void prepare() throws SQLException {
        r.tables = new MovePlanner(env.shards(), env.maps()).tables(r.keyspace, r.source, r.target);
        if (function instanceof HashShardFunction) {
            // Ghost rows of a hash keyspace are told apart by their bucket, computed on the shard.
            for (int shard : new int[] {r.source, r.target}) {
                try (Connection c = env.shards().open(shard); Statement s = c.createStatement()) {
                    Sql.installBucketFunction(s);
                }
            }
        }
        if (env.maps().current().ghosts().stream().noneMatch(g -> g.moveId() == r.id)) {
            env.maps().update(m -> m.withGhost(new Ghost(r.keyspace, keys, r.target, r.id)));
        }
    }

    @Override
    public Placement placement(TableShape shape) {
        return new Placement.Keys(Sql.moving(shape.table.column, keys, configured.bucketCount()), keys, function, r.target);
    }

    @Override
    public Cutover.Scope cutoverScope() {
        return new Cutover.Scope.Keys(r.keyspace, keys, function);
    }

    @Override
    public ShardMap flip(ShardMap m) {
        return m.withKeysMoved(r.keyspace, keys, configured, r.target).withoutGhosts(r.id)
                .withGhost(new Ghost(r.keyspace, keys, r.source, r.id));
    }

    @Override
    public boolean switched(ShardMap map) {
        try {
            return map.sourceOf(r.keyspace, KeySet.parse(r.keys, map.function(r.keyspace, configured)), configured)
                    == r.target;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    @Override
    public void cleanUp(Connection source, List<TableShape> shapes, RowDeleter deleter, RowDeleter.ChunkListener listener)
            throws SQLException, InterruptedException {
        for (TableShape shape : shapes) {
            deleter.delete(source, shape, shape.moving, listener);
        }
    }

    @Override
    public ShardMap ended(ShardMap current) {
        return current.withoutGhosts(r.id);
    }

    @Override
    public boolean leftInMap(ShardMap map) {
        return map.ghosts().stream().anyMatch(g -> g.moveId() == r.id);
    }
}
