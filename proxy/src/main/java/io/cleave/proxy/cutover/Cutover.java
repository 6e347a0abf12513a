package io.cleave.proxy.cutover;

import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.shardmap.KeySet;

import java.time.Duration;

/**
 * One attempt to switch what a move carries from {@code source} to its target(s).
 *
 * @param scope         which statements wait while the switch happens
 * @param drainDeadline how long transactions and statements already on the source may take to
 *                      finish; past it the attempt is given up and everything held runs as before
 */
public record Cutover(long moveId, Scope scope, int source, Duration drainDeadline) {

    /** Keys of one keyspace switching shards: statements that may reach them wait. */
    public Cutover(long moveId, String keyspace, KeySet keys, ShardFunction function, int source, Duration drainDeadline) {
        this(moveId, new Scope.Keys(keyspace, keys, function), source, drainDeadline);
    }

    /**
     * A switch of every shard at once (a standby pair's switchover, {@code id} naming it in logs): every
     * statement that reaches a shard waits, and every session's transaction and connection-bound state
     * must end first.
     */
    public static Cutover allShards(long id, Duration drainDeadline) {
        return new Cutover(id, new Scope.AllShards(), -1, drainDeadline);
    }

    /** Which statements a cutover holds. */
    public sealed interface Scope permits Scope.Keys, Scope.Source, Scope.AllShards {

        /**
         * Statements that may reach {@code keys} of {@code keyspace}.
         *
         * @param function the keyspace's function under the current map (buckets of a hash keyspace)
         */
        record Keys(String keyspace, KeySet keys, ShardFunction function) implements Scope {
        }

        /**
         * Every statement that may reach the source shard: tables change their rules (and the
         * shards they live on), so any statement planned by the old rules could touch them.
         */
        record Source() implements Scope {
        }

        /**
         * Every statement that reaches any shard: the shards themselves change (another host's
         * take over), so nothing may run on the old ones once the switch begins.
         */
        record AllShards() implements Scope {
        }
    }

    /** What the mover does once nothing touches what moves: apply the last changes, flip the map. */
    @FunctionalInterface
    public interface Fence {
        /** Runs while statements on what moves are held; returns normally only once the new map is published. */
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
