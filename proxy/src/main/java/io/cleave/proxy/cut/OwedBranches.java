package io.cleave.proxy.cut;

import java.util.HashMap;
import java.util.Map;
import java.util.Set;

/**
 * Shards that owe a decided transaction its branch commit: the decision committed on the
 * coordinator's shard, but the branch's XA COMMIT failed (its shard or connection went away), so the
 * branch stays prepared until recovery commits it. A snapshot of such a shard would miss a
 * transaction the coordinator's shard shows. An owed branch ends when recovery (or an operator)
 * settles it, or when a scan that began after it was owed no longer finds it prepared. Not
 * thread-safe: {@link CutWindows} guards it.
 */
final class OwedBranches {

    /** Per shard, the owed transactions' ids, each with the mark it was owed at. */
    private final Map<Integer, Map<String, Long>> owed = new HashMap<>();
    /** Orders owed branches against scans of prepared branches. */
    private long marks;

    void owe(int shard, String xid) {
        owed.computeIfAbsent(shard, s -> new HashMap<>()).put(xid, ++marks);
    }

    void settled(int shard, String xid) {
        Map<String, Long> xids = owed.get(shard);
        if (xids != null && xids.remove(xid) != null && xids.isEmpty()) {
            owed.remove(shard);
        }
    }

    /** A mark taken before a scan of the shards' prepared branches. */
    long mark() {
        return ++marks;
    }

    /**
     * A scan that began at {@code mark} found {@code xids} prepared on {@code shard}: a branch owed
     * before the scan began and not among them has been settled (by whatever means).
     */
    void preparedOn(int shard, Set<String> xids, long mark) {
        Map<String, Long> owing = owed.get(shard);
        if (owing == null) {
            return;
        }
        owing.entrySet().removeIf(e -> e.getValue() < mark && !xids.contains(e.getKey()));
        if (owing.isEmpty()) {
            owed.remove(shard);
        }
    }

    /** Why no cut may cover {@code shards} now, or null when none of them owes a branch commit. */
    String owing(int[] shards) {
        if (owed.isEmpty()) {
            return null;
        }
        for (int shard : shards) {
            Map<String, Long> xids = owed.get(shard);
            if (xids != null) {
                return "shard " + shard + " has not yet committed its branch of transaction "
                        + xids.keySet().iterator().next() + ", which committed elsewhere; recovery commits it";
            }
        }
        return null;
    }
}
