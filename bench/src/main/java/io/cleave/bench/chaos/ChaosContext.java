package io.cleave.bench.chaos;

/** What every client of a run shares: the seed, the gate, the clock and where it reports. */
record ChaosContext(long seed, WorkloadGate gate, RunClock clock, ClientErrors errors, Violations violations,
                    FaultTimeline timeline, WorkloadCounts counts) {
}
