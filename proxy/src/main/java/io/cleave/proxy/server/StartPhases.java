package io.cleave.proxy.server;

import java.util.ArrayList;
import java.util.List;

/**
 * How long each phase of the proxy's start took, for the line that says it listens: a failover's
 * time to serve includes this start, so where it goes must be visible in the log.
 */
final class StartPhases {

    private final List<String> done = new ArrayList<>();
    private long since = System.nanoTime();

    /** Ends the phase under way, naming it, and starts the next. */
    void ended(String phase) {
        long now = System.nanoTime();
        done.add(phase + " " + (now - since) / 1_000_000 + " ms");
        since = now;
    }

    @Override
    public String toString() {
        return String.join(", ", done);
    }
}
