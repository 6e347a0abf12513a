package io.cleave.proxy.cutover;

/**
 * Commits the proxy has acknowledged whose last steps still run on a shard: a cross-shard
 * transaction is answered at its durable decision, and its branches' XA COMMITs run after. A
 * transaction the drain waited for has ended for its client by then, while its branch may still
 * be prepared on the source; the map must not change under it (the mover would find the branch
 * prepared and give the attempt up), so the drain waits for those commits too.
 */
@FunctionalInterface
public interface AcknowledgedCommits {

    /** No commit is ever left running after its answer. */
    AcknowledgedCommits NONE = (shard, then) -> then.run();

    /**
     * Runs {@code then} (on any thread) once the commits under way on {@code shard} now have
     * ended; at once when there are none.
     */
    void whenEnded(int shard, Runnable then);
}
