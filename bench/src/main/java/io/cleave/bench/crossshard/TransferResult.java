package io.cleave.bench.crossshard;

import io.cleave.bench.tpcc.run.LatencySummary;
import java.util.Map;

/**
 * What the clients saw in one timed run of k-shard transfers: committed transactions per second,
 * latency of the whole transaction (BEGIN to the COMMIT's answer) and of the COMMIT alone, failed
 * transactions by error code, and the row updates of committed (and possibly committed) ones.
 */
public record TransferResult(int k, double seconds, long committed, long failed, Map<String, Long> errorsByCode,
                             LatencySummary transaction, LatencySummary commit, long committedUpdates,
                             long uncertainUpdates) {

    public double tps() {
        return seconds <= 0 ? 0 : committed / seconds;
    }
}
