package io.cleave.bench.crossshard;

import io.cleave.bench.tpcc.run.LatencySummary;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What one client thread saw: latencies of committed transactions (whole, and the COMMIT alone)
 * and failures by error code. Not thread-safe: one per thread, merged at the end. Updates of
 * committed transactions are counted so the rows' move counters can be checked against them; a
 * COMMIT that failed may or may not have committed, so its updates are counted apart.
 */
public final class TransferStats {
    private final Histogram transactionMicros = LatencySummary.newMicrosHistogram();
    private final Histogram commitMicros = LatencySummary.newMicrosHistogram();
    private final Map<String, Long> errors = new TreeMap<>();
    private long committedUpdates;
    private long uncertainUpdates;

    public void committed(Transfer t, long transactionNanos, long commitNanos) {
        transactionMicros.recordValue(micros(transactionNanos));
        commitMicros.recordValue(micros(commitNanos));
        committedUpdates += t.k();
    }

    /** A failed transaction; duringCommit when the COMMIT itself answered the error. */
    public void failed(Transfer t, String code, boolean duringCommit) {
        errors.merge(code, 1L, Long::sum);
        if (duringCommit) {
            uncertainUpdates += t.k();
        }
    }

    public void add(TransferStats other) {
        transactionMicros.add(other.transactionMicros);
        commitMicros.add(other.commitMicros);
        other.errors.forEach((code, n) -> errors.merge(code, n, Long::sum));
        committedUpdates += other.committedUpdates;
        uncertainUpdates += other.uncertainUpdates;
    }

    public long committed() {
        return transactionMicros.getTotalCount();
    }

    public TransferResult result(int k, double seconds) {
        long failed = errors.values().stream().mapToLong(Long::longValue).sum();
        return new TransferResult(k, seconds, committed(), failed, new TreeMap<>(errors),
            LatencySummary.ofMicros(transactionMicros), LatencySummary.ofMicros(commitMicros), committedUpdates,
            uncertainUpdates);
    }

    /** Rounded up, so a sub-microsecond COMMIT is not recorded as 0 (which the histogram would not show). */
    private static long micros(long nanos) {
        return Math.max(1, (nanos + 999) / 1000);
    }
}
