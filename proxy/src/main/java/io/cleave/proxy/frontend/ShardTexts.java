package io.cleave.proxy.frontend;

import io.cleave.proxy.cutover.GhostRows;
import io.cleave.router.plan.SqlTemplate;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.ShardMap;

import java.util.ArrayList;
import java.util.List;

/**
 * The text each shard of a statement over several shards gets: the plan's template with the
 * command's values, leaving out the rows a running move has copied to a shard but not yet handed
 * over (its ghost rows), so no row counts twice.
 */
final class ShardTexts {

    private ShardTexts() {
    }

    /** One text per shard of {@code shards}; null when the statement cannot leave the ghosts out (then it is refused). */
    static List<byte[]> render(Session session, Command command, SqlTemplate template, int[] shards) {
        ShardMap map = session.runtime().shardMaps().current();
        List<byte[]> out = new ArrayList<>(shards.length);
        for (int shard : shards) {
            byte[] sql = GhostRows.render(template, command.analysis(), command.values(), shard, map,
                    session.runtime().topology());
            if (sql == null) {
                command.clearLongData();
                StringBuilder moves = new StringBuilder();
                for (Ghost g : map.ghosts()) {
                    moves.append(moves.isEmpty() ? "" : ", ").append("move ").append(g.moveId()).append(" of keys ")
                            .append(g.keys()).append(" of keyspace ").append(g.keyspace());
                }
                command.refuse(moves + " is under way, and the proxy cannot add the condition that leaves out the rows"
                        + " being moved to this statement's shape: run it once the move is done");
                return null;
            }
            out.add(sql);
        }
        return out;
    }
}
