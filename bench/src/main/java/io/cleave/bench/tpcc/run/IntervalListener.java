package io.cleave.bench.tpcc.run;

/** Told about each report interval as it ends, with the tpmC of the measurement window so far. */
@FunctionalInterface
public interface IntervalListener {
    IntervalListener NONE = (sample, tpmCSoFar) -> { };

    void onInterval(IntervalSample sample, double tpmCSoFar);
}
