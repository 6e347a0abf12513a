package io.cleave.bench.compare;

/** Throughput over one report interval ending endSeconds after the measurement started, in the comparison's unit. */
public record ThroughputPoint(double endSeconds, double value) {
}
