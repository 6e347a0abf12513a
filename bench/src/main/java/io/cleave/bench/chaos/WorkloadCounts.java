package io.cleave.bench.chaos;

import java.util.concurrent.atomic.AtomicLong;

/** How much work the clients got done, for the report: TPC-C transactions, reads back, invariant reads. */
final class WorkloadCounts {
    final AtomicLong tpccCommitted = new AtomicLong();
    final AtomicLong readBacks = new AtomicLong();
    final AtomicLong invariantReads = new AtomicLong();

    long readBacks() {
        return readBacks.get();
    }

    long invariantReads() {
        return invariantReads.get();
    }
}
