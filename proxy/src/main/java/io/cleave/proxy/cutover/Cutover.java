package io.cleave.proxy.cutover;

import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.shardmap.KeySet;

import java.time.Duration;

/**
 * One attempt to switch {@code keys} of {@code keyspace} from {@code source} to the target.
 *
 * @param function      the keyspace's function under the current map (buckets of a hash keyspace)
 * @param drainDeadline how long transactions and statements already on the moving keys may take to
 *                      finish; past it the attempt is given up and everything held runs as before
 */
public record Cutover(long moveId, String keyspace, KeySet keys, ShardFunction function, int source,
                      Duration drainDeadline) {

    /** What the mover does once nothing touches the moving keys: apply the last changes, flip the map. */
    @FunctionalInterface
    public interface Fence {
        /** Runs while statements on the moving keys are held; returns normally only once the new map is published. */
        void apply() throws Exception;
    }

    /**
     * How an attempt ended.
     *
     * @param pauseNanos how long statements on the moving keys were held (arming to release)
     * @param held       statements held
     * @param reason     why it was given up (null when switched)
     */
    public record Outcome(boolean switched, long pauseNanos, long maxHeldNanos, int held, String reason) {
    }
}
