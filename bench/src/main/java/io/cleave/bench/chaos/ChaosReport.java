package io.cleave.bench.chaos;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** The Markdown summary of a soak run: the faults by kind, the checks that held, the work done, the errors, the CPU. */
public final class ChaosReport {

    private ChaosReport() {
    }

    public static String markdown(ChaosResult r) {
        ChaosOptions o = r.options();
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Seed %d, %s: faults for %d s, %.0f s in all with the checks; %d shards at the"
                + " start (scaled within %d-%d), %s; %s.%n%n", o.seed(), r.passed() ? "every check held"
                : "**a check failed**", o.durationMillis() / 1000, r.elapsedSeconds(), o.shards(), o.minShards(),
            o.maxShards(), r.server(), data(o)));
        b.append(String.format(Locale.ROOT, "Clients through the proxy: %d bank transfer clients, %d upsert clients, %d"
                + " TPC-C terminals, %d readers. Replay: `bench/cleave-bench.sh chaos --seed %d --replay`.%n%n",
            o.transferClients(), o.upsertClients(), o.warehouses() == 0 ? 0 : o.tpccTerminals(), o.readers(), o.seed()));
        b.append("| fault | injected | refused |\n|---|---|---|\n");
        long injected = 0;
        long refused = 0;
        for (FaultKind k : FaultKind.values()) {
            if (r.injected(k) + r.refused(k) > 0) {
                b.append(String.format(Locale.ROOT, "| %s | %d | %d |%n", k.label(), r.injected(k), r.refused(k)));
                injected += r.injected(k);
                refused += r.refused(k);
            }
        }
        b.append(String.format(Locale.ROOT, "| **all** | **%d** | %d |%n%n", injected, refused));
        b.append("| check | rounds held | last round |\n|---|---|---|\n");
        Map<String, int[]> held = new LinkedHashMap<>();
        Map<String, String> last = new LinkedHashMap<>();
        for (CheckRound round : r.rounds()) {
            for (CheckResult c : round.results()) {
                int[] n = held.computeIfAbsent(c.name(), x -> new int[2]);
                n[0] += c.passed() ? 1 : 0;
                n[1]++;
                last.put(c.name(), c.summary());
            }
        }
        held.forEach((name, n) -> b.append(String.format(Locale.ROOT, "| %s | %d of %d | %s |%n", name, n[0], n[1],
            last.get(name))));
        b.append('\n');
        b.append("Work done: ");
        b.append(String.join(", ", r.workload().entrySet().stream().sorted(Map.Entry.comparingByKey())
            .map(e -> String.format(Locale.ROOT, "%s %,d", e.getKey(), e.getValue())).toList()));
        b.append(".\n\n");
        if (!r.errorsByFault().isEmpty()) {
            b.append("Errors clients got, by the fault that ran last before each (\"none\": no fault in the 10 s"
                + " before): ");
            b.append(String.join(", ", new TreeMap<>(r.errorsByFault()).entrySet().stream()
                .map(e -> e.getKey() + " × " + e.getValue()).toList()));
            b.append(".\n\n");
        }
        b.append(String.format(Locale.ROOT, "CPU: the soak (daemon, shards, clients, commands) used %.0f%% of the host's"
                + " CPU time, other processes %.0f%%; load average %s before, %s after.%n", r.oursCpuPercent(),
            r.othersCpuPercent(), r.loadBefore(), r.loadAfter()));
        if (!r.passed()) {
            b.append("\n**Failed:** ").append(r.failure()).append('\n');
            List<CheckRound> rounds = r.rounds();
            if (!rounds.isEmpty()) {
                for (CheckResult c : rounds.get(rounds.size() - 1).results()) {
                    if (!c.passed()) {
                        b.append("\n- ").append(c.name()).append(": ").append(c.summary());
                        c.differences().forEach(d -> b.append("\n  - ").append(d));
                    }
                }
                b.append('\n');
            }
        }
        return b.toString();
    }

    private static String data(ChaosOptions o) {
        return String.format(Locale.ROOT, "%d bank branches x %d accounts, %,d kv keys%s", o.shards() * o.branchesPerShard(),
            o.accountsPerBranch(), o.kvKeys(), o.warehouses() == 0 ? "" : ", " + o.warehouses() + " TPC-C warehouses");
    }
}
