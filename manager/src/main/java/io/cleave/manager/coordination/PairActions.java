package io.cleave.manager.coordination;

/** What the daemon does when its place in the pair changes; called from the coordinator's own threads. */
public interface PairActions {

    /** Stop writing at once: the proxy refuses with {@code reason}, the shards go read-only. Must not block. */
    void fence(String reason);

    /**
     * The lease was renewed: stop serving at {@code nanos} (System.nanoTime()) unless it is renewed again, even if
     * {@link #fence} never gets to run. Called from the renewing thread; must not block.
     */
    void leaseUntil(long nanos);

    /** This home holds the primary's lease (again): serve. */
    void serve();

    /** This standby won the takeover at {@code epoch}: promote its shards and serve. May take seconds. */
    void promote(long epoch) throws Exception;
}
