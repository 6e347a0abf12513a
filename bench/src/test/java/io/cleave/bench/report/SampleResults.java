package io.cleave.bench.report;

import io.cleave.bench.tpcc.run.ErrorStat;
import io.cleave.bench.tpcc.run.IntervalSample;
import io.cleave.bench.tpcc.run.IsolationLevel;
import io.cleave.bench.tpcc.run.LatencySummary;
import io.cleave.bench.tpcc.run.RunConfig;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.run.TransactionSummary;
import io.cleave.bench.tpcc.txn.TransactionType;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/** Made-up results, shaped like a real run's, for tests of what is written from them. */
final class SampleResults {
    private SampleResults() {
    }

    static RunResult of(String label, double tpmC) {
        List<IntervalSample> series = new ArrayList<>();
        for (int t = -10; t <= 60; t += 5) {
            Map<TransactionType, Double> tps = new EnumMap<>(TransactionType.class);
            double newOrders = tpmC / 60 * (1 + 0.05 * Math.sin(t));
            for (TransactionType type : TransactionType.values()) {
                tps.put(type, newOrders * type.percent() / 45.0);
            }
            series.add(new IntervalSample(t, 5, t <= 0, newOrders * 60, tps, t == 30 ? 1 : 0));
        }
        List<TransactionSummary> transactions = new ArrayList<>();
        for (TransactionType type : TransactionType.values()) {
            double base = 1 + type.ordinal();
            transactions.add(new TransactionSummary(type, 1000L * type.percent(), type == TransactionType.NEW_ORDER ? 450 : 0,
                0, 3, new LatencySummary(base, base * 2, base * 3, base * 5, base * 10, base * 1.2)));
        }
        return new RunResult(label, "jdbc:mysql://127.0.0.1:3306/tpcc", "2025-01-01T00:00:00Z",
            new RunConfig(2, 4, 60, 10, 5, IsolationLevel.REPEATABLE_READ, 1, 2, 10), 60, tpmC, tpmC * 100 / 45,
            transactions, List.of(new ErrorStat("1062", "23000", 1, "Duplicate entry")), Map.of("1213", 12L), 0,
            series);
    }
}
