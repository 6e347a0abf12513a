package io.cleave.bench.tpcc.run;

import io.cleave.bench.tpcc.txn.TransactionType;
import java.util.concurrent.atomic.LongAdder;

/** Counters shared by all terminals and read by the reporter, for the progress lines and the series. */
final class LiveCounters {
    private final LongAdder[] completed = new LongAdder[TransactionType.values().length];
    private final LongAdder errors = new LongAdder();
    private final LongAdder measuredNewOrders = new LongAdder();

    LiveCounters() {
        for (int i = 0; i < completed.length; i++) {
            completed[i] = new LongAdder();
        }
    }

    void completed(TransactionType type, boolean inWindow) {
        completed[type.ordinal()].increment();
        if (inWindow && type == TransactionType.NEW_ORDER) {
            measuredNewOrders.increment();
        }
    }

    void error() {
        errors.increment();
    }

    Snapshot snapshot() {
        long[] counts = new long[completed.length];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = completed[i].sum();
        }
        return new Snapshot(counts, errors.sum(), measuredNewOrders.sum());
    }

    record Snapshot(long[] completed, long errors, long measuredNewOrders) {
    }
}
