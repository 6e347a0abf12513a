package io.cleave.manager.coordination;

import java.time.Duration;
import java.util.OptionalLong;

/**
 * Where a standby pair's epoch and primary claim live, and the only ways they change ({@link EtcdPairStore}).
 * Each change compares first, so two homes racing for the primary get one winner.
 */
public interface PairStore extends AutoCloseable {

    /** The epoch and the live primary claim, read at one revision. */
    PairView read() throws EtcdUnavailable;

    /** A new lease of {@code ttl}; its id. */
    long grantLease(Duration ttl) throws EtcdUnavailable;

    /** Renews {@code lease}: the seconds it now has left, or empty when it is gone (it lapsed). */
    OptionalLong renew(long lease) throws EtcdUnavailable;

    /**
     * Claims the primary at {@code me.epoch()} on {@code lease}: when no home ever claimed the pair, when the
     * pair is at that epoch and nobody holds the primary, or when the claim still there is this very one (a
     * daemon restarted before its previous lease lapsed). False when another holds it or the epoch moved.
     */
    boolean claim(PrimaryClaim me, long lease) throws EtcdUnavailable;

    /**
     * Takes the primary over at {@code from + 1}: only while the pair is still at {@code from} and no claim
     * lives. One winner however many try.
     */
    boolean takeOver(long from, PrimaryClaim me, long lease) throws EtcdUnavailable;

    /**
     * Moves the primary from the live claim {@code from} to {@code to} at {@code from.epoch() + 1} in one step (a
     * switchover): only while the pair is at {@code from}'s epoch and {@code from} is the claim that lives, so at
     * every moment exactly one home holds the primary. {@code from}'s lease stays, with no key on it.
     */
    boolean handOver(PrimaryClaim from, PrimaryClaim to, long lease) throws EtcdUnavailable;

    @Override
    void close();
}
