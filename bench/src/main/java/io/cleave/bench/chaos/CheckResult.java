package io.cleave.bench.chaos;

import java.util.List;

/** One check of a round: what it checked (with the figures), whether it held, and what differed. */
public record CheckResult(String name, boolean passed, String summary, List<String> differences) {
    static final int SHOWN = 12;

    public CheckResult {
        differences = List.copyOf(differences.subList(0, Math.min(SHOWN, differences.size())));
    }

    static CheckResult of(String name, String summary, List<String> differences) {
        return new CheckResult(name, differences.isEmpty(), summary, differences);
    }
}
