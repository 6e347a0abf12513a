package io.cleave.proxy.metrics;

import io.cleave.proxy.backend.PoolMetrics;
import io.cleave.proxy.protocol.packet.client.CommandCode;

/**
 * What the proxy measures. Every method defaults to doing nothing, so code paths call it
 * unconditionally and a proxy without a registry pays nothing.
 */
public interface ProxyMetrics extends PoolMetrics {

    ProxyMetrics NONE = new ProxyMetrics() {
    };

    default void command(CommandCode command, RouteKind route) {
    }

    default void shardLatency(int shard, long nanos) {
    }

    default void error(int code) {
    }

    default void clientConnected() {
    }

    default void clientDisconnected() {
    }

    default void authFailed(String user) {
    }

    /** A client connection ended before login for another reason than its credentials. */
    default void loginAborted(LoginAbort reason) {
    }

    /** A transaction ended on the shards (counted once, when the client got its answer). */
    default void transactionEnded(TransactionKind kind, TransactionOutcome outcome) {
    }

    /** A commit of a transaction spanning shards took this long, from its start to the client's answer. */
    default void distributedCommit(long nanos) {
    }

    /** Prepared XA branches the last recovery pass found and could not settle. */
    default void inDoubtAfterRecovery(int branches) {
    }

    /** An in-doubt XA branch was committed or rolled back, by recovery or by an operator. */
    default void branchSettled(boolean byRecovery, boolean committed) {
    }

    /** The deadlock detector looked at every shard's lock waits (a cross-shard statement waited past the threshold). */
    default void deadlockCheck() {
    }

    /** A deadlock across shards was broken: a victim was rolled back. */
    default void deadlockBroken() {
    }

    /** What consistent cuts measure (see {@link io.cleave.proxy.cut.CutWindows}). */
    default io.cleave.proxy.cut.CutMetrics cuts() {
        return io.cleave.proxy.cut.CutMetrics.NONE;
    }
}
