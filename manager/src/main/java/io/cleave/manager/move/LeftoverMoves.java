package io.cleave.manager.move;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.ShardMap;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Key moves the map names that no journal here records: a promoted standby's map carries the ghosts of
 * the moves its old primary was running, whose journals stayed there. Whether such a move had flipped or
 * not, its ghost says the same: the rows of its keys on the ghost's shard do not belong there (the target's
 * copy before the flip, the source's old rows after it), and no client reaches them. Each becomes a move in
 * its clean-up, from the ghost's shard to the keys' owner: the rows are deleted, then the ghost dropped.
 * Moves of whole tables (a shard-table, a scale's adding of shards) also froze tables or changed the shard count:
 * {@link LeftoverTableMoves} settles them by the map's rules and count, not as a clean-up.
 */
final class LeftoverMoves {

    private LeftoverMoves() {
    }

    /** Records (journaled by the caller) that clean up the key moves of {@code map} outside {@code known}. */
    static List<MoveRecord> adopt(MoveEnvironment env, Set<Long> known) throws SQLException {
        ShardMap map = env.maps().current();
        List<MoveRecord> out = new ArrayList<>();
        for (Ghost g : map.ghosts()) {
            if (known.contains(g.moveId()) || map.movingTables().containsValue(g.moveId())
                    || map.ghosts().stream().filter(o -> o.moveId() == g.moveId()).count() > 1) {
                continue;
            }
            Keyspace keyspace = env.maps().routing().keyspaces().get(g.keyspace());
            if (keyspace == null) {
                continue;
            }
            ShardFunction configured = keyspace.function();
            int owner;
            try {
                owner = map.sourceOf(g.keyspace(), g.keys(), configured);
            } catch (IllegalArgumentException e) {
                continue; // its keys lie on several shards now: not a move's ghost this can settle
            }
            if (owner == g.shard()) {
                continue;
            }
            if (configured instanceof HashShardFunction) {
                try (Connection c = env.shards().open(g.shard()); Statement s = c.createStatement()) {
                    Sql.installBucketFunction(s);
                }
            }
            MoveRecord r = new MoveRecord();
            r.id = g.moveId();
            r.keyspace = g.keyspace();
            r.keys = g.keys().toString();
            r.source = g.shard();
            r.target = owner;
            r.tables = new MovePlanner(env.shards(), env.maps()).tables(g.keyspace(), g.shard(), owner);
            r.created = Instant.now().toString();
            r.origin = "leftover";
            r.phase = MovePhase.CLEANING_UP;
            r.message = "rows a move this home has no record of left on shard " + g.shard() + " (the old primary's,"
                    + " when this home was promoted): deleting them";
            out.add(r);
        }
        return out;
    }
}
