package io.cleave.bench.tpcc.run;

import io.cleave.bench.tpcc.txn.TransactionType;
import java.util.Map;

/**
 * Throughput over one report interval. endSeconds is measured from the start of the measurement
 * window, so warm-up intervals are negative and runs with different warm-ups line up at zero.
 */
public record IntervalSample(double endSeconds, double lengthSeconds, boolean warmup, double tpmC,
                             Map<TransactionType, Double> tps, long errors) {
}
