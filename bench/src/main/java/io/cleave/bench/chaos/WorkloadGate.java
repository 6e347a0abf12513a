package io.cleave.bench.chaos;

import java.time.Duration;

/**
 * Lets the checks see the data at rest: every client enters the gate before a unit of work (a
 * transaction with its retries, one upsert, one read) and leaves it after. {@link #pause} stops
 * new entries and waits until the units under way ended; {@link #resume} lets them go on;
 * {@link #stop} ends the clients.
 */
public final class WorkloadGate {
    private boolean paused;
    private boolean stopped;
    private int inside;

    /** Waits while paused; false once stopped (the client ends). */
    public synchronized boolean enter() throws InterruptedException {
        while (paused && !stopped) {
            wait();
        }
        if (stopped) {
            return false;
        }
        inside++;
        return true;
    }

    public synchronized void exit() {
        inside--;
        notifyAll();
    }

    /** Closes the gate and waits up to {@code timeout} for the units under way; returns how many are still running. */
    public synchronized int pause(Duration timeout) throws InterruptedException {
        paused = true;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (inside > 0) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                break;
            }
            wait(Math.max(1, left / 1_000_000));
        }
        return inside;
    }

    public synchronized void resume() {
        paused = false;
        notifyAll();
    }

    public synchronized void stop() {
        stopped = true;
        notifyAll();
    }

    public synchronized boolean stopped() {
        return stopped;
    }
}
