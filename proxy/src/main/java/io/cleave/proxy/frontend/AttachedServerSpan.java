package io.cleave.proxy.frontend;

import io.cleave.router.shardmap.ShardMap;

/**
 * A transaction never spans an attached server (an import's source) and another shard: the
 * source takes no part in two-phase commits (Cleave writes nothing there, not even a decision).
 * Without attached servers, or outside a transaction, nothing is checked.
 */
final class AttachedServerSpan {

    private AttachedServerSpan() {
    }

    /** Why a statement reaching {@code shard} cannot run in the session's transaction, or null when it can. */
    static String refusal(Session session, ShardMap map, int shard) {
        int other = otherShard(session, map);
        return other < 0 ? null : refusal(map, other, shard);
    }

    /** Why a statement reaching {@code shards} cannot run in the session's transaction, or null when it can. */
    static String refusal(Session session, ShardMap map, int[] shards) {
        int other = otherShard(session, map);
        if (other < 0) {
            return null;
        }
        for (int shard : shards) {
            String why = refusal(map, other, shard);
            if (why != null) {
                return why;
            }
        }
        return null;
    }

    /** The one shard the session's transaction runs on when an attached server is in play, else -1. */
    private static int otherShard(Session session, ShardMap map) {
        if (map.attached().isEmpty() || !session.inTransaction()) {
            return -1;
        }
        return session.transaction().onlyShard();
    }

    private static String refusal(ShardMap map, int other, int shard) {
        if (shard == other || !map.isAttached(shard) && !map.isAttached(other)) {
            return null;
        }
        int attached = map.isAttached(shard) ? shard : other;
        return "this transaction already runs on " + place(map, other) + " and this statement reaches "
                + place(map, shard) + ": a transaction cannot span the import's source ("
                + map.attached().get(attached - map.shardCount()).label() + ") and the local shards until the import"
                + " is done; commit first";
    }

    private static String place(ShardMap map, int shard) {
        return map.isAttached(shard) ? "the database being imported" : "shard " + shard;
    }
}
