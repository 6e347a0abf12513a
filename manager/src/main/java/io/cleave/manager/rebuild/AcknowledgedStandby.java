package io.cleave.manager.rebuild;

import io.cleave.manager.standby.ShardReplication;
import io.cleave.manager.standby.StandbyReport;

import java.util.List;

/**
 * When a rebuilt standby is done: every replica of it runs both threads, and each shard of the primary waits for one
 * semi-sync replica (semi-sync on, a client counted), so that no commit of the primary is acknowledged without it.
 */
public final class AcknowledgedStandby {

    private AcknowledgedStandby() {
    }

    /** Whether {@code standby} (its own report) is done, as {@code primary} (the primary's report) sees it. */
    public static boolean done(StandbyReport standby, StandbyReport primary) {
        return !standby.shards().isEmpty() && standby.shards().stream().allMatch(ShardReplication::replicating)
                && primary.semiSync() && primary.shards().size() == standby.shards().size()
                && primary.shards().stream().allMatch(s -> s.semiSyncClients() >= 1);
    }

    /** What is still awaited, said while the wait lasts. */
    public static String awaited(StandbyReport standby, StandbyReport primary) {
        List<String> notRunning = standby.shards().stream().filter(r -> !r.replicating())
                .map(r -> "shard " + r.shard() + " (IO " + r.ioThread() + ", SQL " + r.sqlThread()
                        + (r.lastError() == null ? "" : ", " + r.lastError()) + ")").toList();
        if (standby.shards().isEmpty() || !notRunning.isEmpty()) {
            return "waiting for the replicas to run: " + (standby.shards().isEmpty() ? "none read yet"
                    : String.join(", ", notRunning));
        }
        if (!primary.semiSync()) {
            return "every replica runs; waiting for the primary to turn semi-sync on (this home's daemon asks it)";
        }
        return "waiting for each shard of the primary to count this home's replica as acknowledging";
    }
}
