package io.cleave.manager.move;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

/**
 * Runs a journaled plan of moves (an import, a scale) one step after another on a thread of its
 * own until it ends: a step that fails is tried again after a pause that doubles up to ten seconds,
 * the failure recorded by the caller (a shard or the source briefly away must not end the plan).
 */
public final class Steps implements AutoCloseable {

    /** One step; false when the plan ended (or must stop). */
    @FunctionalInterface
    public interface Step {
        boolean run() throws Exception;
    }

    @FunctionalInterface
    public interface Failure {
        void failed(Exception e);
    }

    private final ExecutorService thread;
    private final Step step;
    private final Failure failure;
    private volatile boolean closed;

    /** {@code name}: the thread's. */
    public Steps(String name, Step step, Failure failure) {
        this.step = step;
        this.failure = failure;
        this.thread = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, name);
            t.setDaemon(true);
            return t;
        });
    }

    /** Runs the steps from where the plan stands (after those already queued end). */
    public void go() {
        thread.execute(this::loop);
    }

    /** Whether the daemon is stopping (a step waiting for something gives up). */
    public boolean closed() {
        return closed;
    }

    private void loop() {
        long backoff = 500;
        while (!closed) {
            try {
                if (!step.run()) {
                    return;
                }
                backoff = 500;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            } catch (Exception e) {
                failure.failed(e);
                try {
                    TimeUnit.MILLISECONDS.sleep(backoff);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
                backoff = Math.min(10_000, backoff * 2);
            }
        }
    }

    @Override
    public void close() {
        closed = true;
        thread.shutdownNow();
        try {
            thread.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
