package io.cleave.manager.backup;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/** The counters of one running backup, updated by its readers and writers, read by status requests. */
final class BackupProgress {

    final String id;
    final String location;
    final Instant started = Instant.now();
    private final long startedNanos = System.nanoTime();
    private volatile String engine = BackupManifest.LOGICAL;
    private volatile BackupPhase phase = BackupPhase.STARTING;
    private volatile String message;
    private volatile Instant finished;
    private volatile long snapshotOpenedNanos;
    private volatile long snapshotClosedNanos;
    private final AtomicLong rowsEstimate = new AtomicLong();
    private final AtomicLong rowsRead = new AtomicLong();
    private final AtomicLong bytesRead = new AtomicLong();
    private final AtomicLong storedBytes = new AtomicLong();
    private final AtomicLong chunks = new AtomicLong();
    private final AtomicLong historyLength = new AtomicLong();
    private volatile int tables;
    private final AtomicInteger tablesDone = new AtomicInteger();

    BackupProgress(String id, String location) {
        this.id = id;
        this.location = location;
    }

    void phase(BackupPhase p) {
        phase = p;
        if (p.terminal()) {
            finished = Instant.now();
            if (snapshotOpenedNanos != 0 && snapshotClosedNanos == 0) {
                snapshotClosedNanos = System.nanoTime();
            }
        }
    }

    BackupPhase phase() {
        return phase;
    }

    void engine(String e) {
        engine = e;
    }

    void fail(String why) {
        message = why;
        phase(BackupPhase.FAILED);
    }

    void snapshotsOpened() {
        snapshotOpenedNanos = System.nanoTime();
    }

    void snapshotsClosed() {
        snapshotClosedNanos = System.nanoTime();
    }

    long snapshotMillis() {
        long opened = snapshotOpenedNanos;
        if (opened == 0) {
            return 0;
        }
        long closed = snapshotClosedNanos;
        return ((closed != 0 ? closed : System.nanoTime()) - opened) / 1_000_000;
    }

    void tables(int n, long estimate) {
        tables = n;
        rowsEstimate.set(estimate);
    }

    void tableDone() {
        tablesDone.incrementAndGet();
    }

    void rowRead(long bytes) {
        rowsRead.incrementAndGet();
        bytesRead.addAndGet(bytes);
    }

    /** Bytes a physical copy read from a shard. */
    void copied(long bytes) {
        bytesRead.addAndGet(bytes);
    }

    void chunkStored(long stored) {
        chunks.incrementAndGet();
        storedBytes.addAndGet(stored);
    }

    void historyLength(long length) {
        historyLength.accumulateAndGet(length, Math::max);
    }

    long storedBytes() {
        return storedBytes.get();
    }

    long durationMillis() {
        return (System.nanoTime() - startedNanos) / 1_000_000;
    }

    BackupStatus status() {
        Instant f = finished;
        return new BackupStatus(id, location, engine, phase, started.toString(), f == null ? null : f.toString(),
                rowsEstimate.get(), rowsRead.get(), bytesRead.get(), storedBytes.get(), chunks.get(), tables,
                tablesDone.get(), historyLength.get(), snapshotMillis(), durationMillis(), message);
    }
}
