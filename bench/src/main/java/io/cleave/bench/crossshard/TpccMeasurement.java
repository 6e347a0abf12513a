package io.cleave.bench.crossshard;

import io.cleave.bench.compare.Measurement;

/** One timed TPC-C run through the proxy, with the XA branches the shards started and the cross-shard share. */
public record TpccMeasurement(int round, Measurement metered, long xaStarts, CrossShardShare share) {
}
