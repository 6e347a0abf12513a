package io.cleave.proxy.cut;

/** What cuts measure. Every method defaults to doing nothing. */
public interface CutMetrics {

    CutMetrics NONE = new CutMetrics() {
    };

    /** A cut's snapshots are open: it waited {@code waitNanos} for its window (from asking to the window opening). */
    default void cutTaken(long waitNanos) {
    }

    /** A cut could not be taken ({@code reason}: window_expired, wait_expired, shard_error). */
    default void cutFailed(String reason) {
    }

    /** A window closed after {@code nanos}, with {@code cuts} cuts opened in it. */
    default void windowClosed(long nanos, int cuts) {
    }

    /** A cross-shard commit's decision waited {@code nanos} behind a cut before it was sent (its client waited too). */
    default void commitHeld(long nanos) {
    }

    /** Branch commits (XA COMMIT, after the client's answer) waited {@code nanos} behind a cut. */
    default void branchCommitHeld(long nanos) {
    }

    /** A client's answer (or its next command) waited for a window to close. */
    default void answerHeld() {
    }
}
