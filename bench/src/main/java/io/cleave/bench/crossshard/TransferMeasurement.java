package io.cleave.bench.crossshard;

import io.cleave.bench.compare.Measurement;

/**
 * One timed run of k-shard transfers: the metered run (proxy, shard, client and host CPU,
 * statements, load; its result's latency is the whole transaction's), what the clients saw
 * (COMMIT latency, failures, updates), and the XA branches the shards started meanwhile.
 */
public record TransferMeasurement(int k, int round, Measurement metered, TransferResult clients, long xaStarts) {

    /** XA branches started per committed transaction: k - 1 when the proxy joins each further shard as a branch. */
    public double xaStartsPerTransaction() {
        return clients.committed() == 0 ? Double.NaN : (double) xaStarts / clients.committed();
    }
}
