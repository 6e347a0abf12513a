package io.cleave.manager.daemon;

import io.cleave.proxy.deadlock.DeadlockReport;
import io.cleave.proxy.server.InDoubtResolution;
import io.cleave.proxy.server.XaRecovery;

import java.util.List;

/**
 * The client-facing proxy as the daemon runs it: started once every shard answers queries,
 * closed before the shards are stopped.
 */
public interface ProxyService extends AutoCloseable {

    /** Binds the listen address and starts serving; throws when it cannot (the daemon then stops). */
    void start() throws Exception;

    /** A short description for status, e.g. "listening on 127.0.0.1:6033". */
    String describe();

    /** Prepared XA branches on the shards and what recovery would do with each (a fresh scan). */
    List<XaRecovery.InDoubtBranch> inDoubt();

    /**
     * An operator's commit or rollback of one transaction's prepared branches; refused against the
     * coordinator's recorded decision unless {@code force}.
     */
    InDoubtResolution resolveInDoubt(String xid, boolean commit, boolean force);

    /**
     * Where cuts are ordered against cross-shard commits: a backup takes its cut here
     * ({@link io.cleave.proxy.cut.JdbcCut}) so that no transaction across shards is torn in it.
     */
    io.cleave.proxy.cut.CutWindows cuts();

    /** Where moves hold statements on moving keys while the map changes. */
    io.cleave.proxy.cutover.CutoverGate cutoverGate();

    /** Serves one more shard (added by a scale) or attached server (an import's source), before the map names it. */
    void addShard(ShardEndpoint shard);

    /** Stops serving a shard or attached server the map no longer names. */
    void removeShard(int shard);

    /** Backend connections to {@code shard} borrowed by statements or transactions now. */
    int connectionsInUse(int shard);

    /** Runs a recovery pass now; returns how many branches it settled. */
    int recoverNow();

    /** The global unique keys the proxy enforces (for explanations), none when it does not run. */
    default io.cleave.router.unique.UniqueKeysView uniqueKeys() {
        return io.cleave.router.unique.UniqueKeysView.NONE;
    }

    /**
     * Keeps moves and builds of global unique keys' lookups apart: a build refuses to start while
     * {@code moves} says one runs; {@link #buildingUniqueKeys} tells the moves.
     */
    default void uniqueKeyBuildsExclude(java.util.function.BooleanSupplier moves) {
    }

    /**
     * A change of the global unique keys (a build, a table declaring or dropping keys) is refused while {@code why},
     * given what the change is, says why (else null).
     */
    default void uniqueKeyChangesRefusedWhile(java.util.function.UnaryOperator<String> why) {
    }

    /** {@code index}'s lookup was filled by a move's cutover that sharded its table: enforce it fully. */
    default void uniqueKeyComplete(io.cleave.router.unique.UniqueIndex index) {
    }

    /** {@code index} is gone: the move that would have sharded its table was undone. */
    default void uniqueKeyDropped(io.cleave.router.unique.UniqueIndex index) {
    }

    /** Whether a global unique key's lookup is being built now. */
    default boolean buildingUniqueKeys() {
        return false;
    }

    /** The last deadlock across shards the proxy broke, or null (none yet, or no proxy). */
    default DeadlockReport latestDeadlock() {
        return null;
    }

    /**
     * Stops writing as the standby pair's primary: every statement is refused with {@code reason}, no cross-shard
     * commit sends its decision or a branch's XA COMMIT, and XA recovery settles nothing (see
     * {@link io.cleave.proxy.server.PrimaryFence}).
     */
    default void fence(String reason) {
    }

    /** This home holds the primary's lease until {@code nanos} (System.nanoTime()): refuse past it unless renewed. */
    default void leaseUntil(long nanos) {
    }

    /** This home handed the primary's lease over (a switchover): the proxy forwards to the new primary, no deadline. */
    default void leaseGivenUp() {
    }

    /** Serves again: this home holds the primary's lease anew. */
    default void lift() {
    }

    /** What a standby pair's switchover does with the proxy (hold, re-route every shard); refused when it cannot. */
    default io.cleave.manager.standby.SwitchingProxy switching() {
        throw new IllegalStateException("this proxy cannot serve a switchover");
    }

    /** PROXY protocol headers from {@code address} (the standby's relay) are taken from the next client on. */
    default void trustRelay(java.net.InetAddress address) {
    }

    /** Stops accepting clients and closes their sessions and backend connections. */
    @Override
    void close();
}
