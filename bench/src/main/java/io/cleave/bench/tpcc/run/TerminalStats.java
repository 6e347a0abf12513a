package io.cleave.bench.tpcc.run;

import io.cleave.bench.tpcc.txn.Outcome;
import io.cleave.bench.tpcc.txn.TransactionType;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.HdrHistogram.Histogram;

/**
 * What one terminal measured inside the window. Owned by its thread while running, so nothing
 * here is synchronized; the driver merges all terminals' stats after they stop.
 */
final class TerminalStats {
    private final Histogram[] latency = new Histogram[TransactionType.values().length];
    private final long[] completed = new long[latency.length];
    private final long[] rolledBack = new long[latency.length];
    private final long[] failed = new long[latency.length];
    private final long[] retries = new long[latency.length];
    private final Map<String, Long> retriesByCode = new TreeMap<>();
    private final Map<String, MutableError> errors = new LinkedHashMap<>();
    private long reconnects;

    TerminalStats() {
        for (int i = 0; i < latency.length; i++) {
            latency[i] = LatencySummary.newMicrosHistogram();
        }
    }

    void completed(TransactionType type, Outcome outcome, long micros) {
        int i = type.ordinal();
        completed[i]++;
        if (outcome == Outcome.ROLLED_BACK) {
            rolledBack[i]++;
        }
        latency[i].recordValue(Math.max(1, Math.min(micros, latency[i].getHighestTrackableValue())));
    }

    void retried(TransactionType type, String code) {
        retries[type.ordinal()]++;
        retriesByCode.merge(code, 1L, Long::sum);
    }

    void failed(TransactionType type, String code, String sqlState, String message) {
        failed[type.ordinal()]++;
        errors.computeIfAbsent(code, c -> new MutableError(sqlState, message)).count++;
    }

    void reconnected() {
        reconnects++;
    }

    void addTo(TerminalStats total) {
        for (int i = 0; i < latency.length; i++) {
            total.latency[i].add(latency[i]);
            total.completed[i] += completed[i];
            total.rolledBack[i] += rolledBack[i];
            total.failed[i] += failed[i];
            total.retries[i] += retries[i];
        }
        retriesByCode.forEach((code, n) -> total.retriesByCode.merge(code, n, Long::sum));
        errors.forEach((code, e) -> total.errors.computeIfAbsent(code, c -> new MutableError(e.sqlState, e.message))
            .count += e.count);
        total.reconnects += reconnects;
    }

    long completed(TransactionType type) {
        return completed[type.ordinal()];
    }

    List<TransactionSummary> summaries() {
        List<TransactionSummary> out = new ArrayList<>();
        for (TransactionType type : TransactionType.values()) {
            int i = type.ordinal();
            out.add(new TransactionSummary(type, completed[i], rolledBack[i], failed[i], retries[i],
                LatencySummary.ofMicros(latency[i])));
        }
        return out;
    }

    List<ErrorStat> errors() {
        List<ErrorStat> out = new ArrayList<>();
        errors.forEach((code, e) -> out.add(new ErrorStat(code, e.sqlState, e.count, e.message)));
        return out;
    }

    Map<String, Long> retriesByCode() {
        return new TreeMap<>(retriesByCode);
    }

    long reconnects() {
        return reconnects;
    }

    private static final class MutableError {
        final String sqlState;
        final String message;
        long count;

        MutableError(String sqlState, String message) {
            this.sqlState = sqlState;
            this.message = message;
        }
    }
}
