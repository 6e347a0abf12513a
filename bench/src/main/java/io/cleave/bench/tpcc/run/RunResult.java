package io.cleave.bench.tpcc.run;

import io.cleave.bench.tpcc.txn.TransactionType;
import java.util.List;
import java.util.Map;

/**
 * What a run measured. tpmC counts completed new-orders per minute of the measurement window,
 * including the specified 1% that roll back (they are completed business transactions).
 */
public record RunResult(String label, String target, String startedAt, RunConfig config, double measuredSeconds,
                        double tpmC, double totalTpm, List<TransactionSummary> transactions,
                        List<ErrorStat> errors, Map<String, Long> retries, long reconnects,
                        List<IntervalSample> series) {

    public TransactionSummary transaction(TransactionType type) {
        return transactions.stream().filter(t -> t.type() == type).findFirst()
            .orElseThrow(() -> new IllegalArgumentException("no summary for " + type));
    }

    public long totalErrors() {
        return errors.stream().mapToLong(ErrorStat::count).sum();
    }

    public long totalRetries() {
        return retries.values().stream().mapToLong(Long::longValue).sum();
    }
}
