package io.cleave.bench.chaos;

import java.util.List;

/**
 * The checks after one fault settled (round 0: before the first fault), with the workloads at
 * rest: when, how long they took, and each check's result.
 */
public record CheckRound(int round, int afterFault, String afterKind, long atMillis, long tookMillis,
                         List<CheckResult> results) {

    public CheckRound {
        results = List.copyOf(results);
    }

    public boolean passed() {
        return results.stream().allMatch(CheckResult::passed);
    }
}
