package io.cleave.bench.tpcc.run;

import io.cleave.bench.tpcc.txn.TransactionType;

/**
 * One transaction type over the measurement window. completed = committed + rolledBack (the
 * specified new-order rollbacks); failed transactions are not in it nor in the latencies, which
 * are measured around the whole transaction, retries included.
 */
public record TransactionSummary(TransactionType type, long completed, long rolledBack, long failed, long retries,
                                 LatencySummary latency) {
}
