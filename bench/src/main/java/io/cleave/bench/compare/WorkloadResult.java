package io.cleave.bench.compare;

import io.cleave.bench.tpcc.run.LatencySummary;
import io.cleave.bench.tpcc.run.RunResult;
import java.util.List;

/**
 * What the client saw in one timed run. throughput is in the workload's unit (tps for sysbench,
 * tpmC for TPC-C); queries is -1 when the client does not count its statements (TPC-C), and the
 * server-side counters stand in. tpcc holds the full TPC-C result (per-type latencies) or null.
 */
public record WorkloadResult(double seconds, long transactions, long queries, double throughput,
                             LatencySummary latency, List<ThroughputPoint> series, long errors, RunResult tpcc) {
}
