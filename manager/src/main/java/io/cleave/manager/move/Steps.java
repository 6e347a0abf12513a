package io.cleave.manager.move;

import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Runs a journaled plan of moves (an import, a scale) one step after another on its own thread
 * until it ends: a step that fails is tried again after a pause that doubles up to ten seconds,
 * the failure recorded by the caller (a shard or the source briefly away must not end the plan).
 */
public final class Steps {

    /** One step; false when the plan ended (or must stop). */
    @FunctionalInterface
    public interface Step {
        boolean run() throws Exception;
    }

    @FunctionalInterface
    public interface Failure {
        void failed(Exception e);
    }

    private Steps() {
    }

    /** Runs {@code step} until it returns false, {@code closed} says so, or the thread is interrupted. */
    public static void run(Step step, Failure failure, BooleanSupplier closed) {
        long backoff = 500;
        while (!closed.getAsBoolean()) {
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
}
