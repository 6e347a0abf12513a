package io.cleave.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.bench.compare.TpccDataset;
import io.cleave.bench.cuts.CutMetricsDelta;
import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.HomeSpec;
import io.cleave.bench.home.Layout;
import io.cleave.bench.measure.HostCpu;
import io.cleave.bench.tpcc.check.ConsistencyCheck;
import io.cleave.bench.tpcc.run.RunResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import javax.sql.DataSource;

/**
 * {@code bench backup}: takes {@code --backups} backups to a directory while TPC-C runs through the
 * proxy, and reports per backup its size and duration, how long its snapshots were open, the clients'
 * pause at its cut (the commit decisions the proxy held while the cut's window was open, from the
 * daemon's cut meters over the backup), and TPC-C's throughput before and during it, with the CPU
 * other processes took.
 */
@Command(name = "backup", mixinStandardHelpOptions = true,
    description = {"Takes backups while TPC-C runs through the proxy; per backup: rows, MB, seconds, snapshots open,"
        + " commits held at its cut (count, longest), TPC-C throughput before and during it (mean, slowest second)."})
final class BackupBenchCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    HomeMixin home;

    @Option(names = "--shards", defaultValue = "2", description = "Shards (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--warehouses", defaultValue = "4", description = "Warehouses, in ranges over the shards (default: ${DEFAULT-VALUE}).")
    int warehouses;

    @Option(names = "--connections", defaultValue = "4", description = "TPC-C terminals (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--backups", defaultValue = "3", description = "Backups, one after another (default: ${DEFAULT-VALUE}).")
    int backups;

    @Option(names = "--before", defaultValue = "20s", converter = DurationConverter.class,
        description = "TPC-C time before the first backup, the baseline (default: ${DEFAULT-VALUE}).")
    Duration before;

    @Option(names = "--gap", defaultValue = "10s", converter = DurationConverter.class,
        description = "TPC-C time between backups (default: ${DEFAULT-VALUE}).")
    Duration gap;

    @Option(names = "--max-rate", split = ",", defaultValue = "0", paramLabel = "MB/S[,MB/S...]",
        description = "Each backup's bound on MB written per second (0: none), taken in turn from this list: 0,8 with"
            + " --backups 4 runs them unbounded, at 8, unbounded, at 8 (default: ${DEFAULT-VALUE}).")
    List<Integer> maxRates;

    @Option(names = "--engine", split = ",", defaultValue = "auto", paramLabel = "ENGINE[,ENGINE...]",
        description = "Each backup's engine (auto, logical, physical), taken in turn from this list like --max-rate:"
            + " logical,physical with --backups 4 alternates them (physical needs the server's own mariadb-backup, e.g."
            + " --server-binary $(scripts/debian-mariadb)) (default: ${DEFAULT-VALUE}).")
    List<String> engines;

    @Option(names = "--loader-threads", defaultValue = "2", description = "Threads loading TPC-C (default: ${DEFAULT-VALUE}).")
    int loaderThreads;

    /** One backup as measured: its final status, when it ran (s since the start), the cut meters over it. */
    private record Measured(JsonNode status, int maxRate, double from, double to, CutMetricsDelta cut) {
        String engine() {
            return status.path("engine").asText("?");
        }

    }

    @Override
    public Integer call() throws Exception {
        HomeSpec spec = home.spec(Layout.TPCC, warehouses, 0).withShards(shards);
        PrintWriter out = new PrintWriter(System.out, true);
        try (BenchHome h = BenchHome.create(home.cleaveJar(), spec)) {
            h.up();
            out.printf("loading %d warehouses ...%n", warehouses);
            new TpccDataset(warehouses, loaderThreads).load(h);
            Path location = Files.createDirectories(h.home().getParent().resolve("backups"));
            DataSource proxy = h.proxy("tpcc").withServerPreparedStatements();
            HostCpu cpu0 = HostCpu.read();
            long ours0 = BackgroundTpcc.ourCpu(h);
            BackgroundTpcc tpcc = new BackgroundTpcc(proxy, warehouses, connections);
            Thread.sleep(before.toMillis());
            List<Measured> measured = new ArrayList<>();
            for (int i = 0; i < backups; i++) {
                String metricsBefore = h.metrics();
                double from = tpcc.now();
                int rate = maxRates.get(i % maxRates.size());
                String engine = engines.get(i % engines.size());
                JsonNode r = JSON.readTree(h.admin("POST", "/v1/backups", "{\"to\": \"" + location + "\", \"engine\": \""
                    + engine + "\", \"maxRateMbS\": " + rate + "}"));
                String id = r.get("id").asText();
                while (!r.get("phase").asText().equals("DONE")) {
                    if (r.get("phase").asText().equals("FAILED")) {
                        throw new IllegalStateException("backup " + id + " failed: " + r.get("message"));
                    }
                    Thread.sleep(100);
                    r = JSON.readTree(h.admin("GET", "/v1/backups/" + id, null));
                }
                double to = tpcc.now();
                measured.add(new Measured(r, rate, from, to, CutMetricsDelta.between(metricsBefore, h.metrics())));
                out.printf("backup %s (%s) done: %s rows in %.1f s%n", id, r.path("engine").asText(engine), r.get("rowsRead"),
                    to - from);
                Thread.sleep(gap.toMillis());
            }
            List<RunResult> results = tpcc.stop();
            HostCpu cpu = HostCpu.read().minus(cpu0);
            long ours = BackgroundTpcc.ourCpu(h) - ours0;
            long errors = results.stream().mapToLong(RunResult::totalErrors).sum();
            var violations = ConsistencyCheck.check(new ArrayList<>(h.shards("tpcc")), warehouses);
            report(out, measured, tpcc, errors, violations.size(), cpu, ours);
            return errors == 0 && violations.isEmpty() ? 0 : 1;
        }
    }

    private void report(PrintWriter out, List<Measured> measured, BackgroundTpcc tpcc, long errors, int violations,
                        HostCpu cpu, long oursMicros) {
        out.println();
        out.println("| backup | engine | max MB/s | rows | MB read | MB stored | s | MB/s read | MB/s stored | snapshots open ms"
            + " | history list | cuts taken | commits held at the cut | longest hold ms (at most) | cut window ms"
            + " | TPC-C tpmC during (min 1 s) |");
        out.println("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|");
        double baseline = tpcc.mean(0, measured.get(0).from());
        double[] holds = new double[measured.size()];
        for (int i = 0; i < measured.size(); i++) {
            Measured m = measured.get(i);
            JsonNode s = m.status();
            double seconds = m.to() - m.from();
            double mb = s.get("bytesRead").asDouble() / 1e6;
            holds[i] = m.cut().longestCommitWaitMillis();
            double stored = s.get("storedBytes").asDouble() / 1e6;
            out.printf(Locale.ROOT, "| %d | %s | %s | %,d | %.1f | %.1f | %.1f | %.2f | %.2f | %,d | %,d | %d | %d | %.1f | %.1f"
                    + " | %,.0f (%,.0f) |%n",
                i + 1, m.engine(), m.maxRate() == 0 ? "-" : Integer.toString(m.maxRate()), s.get("rowsRead").asLong(), mb, stored,
                seconds, mb / seconds, stored / seconds,
                s.get("snapshotMillis").asLong(), s.get("historyLength").asLong(), m.cut().cuts(), m.cut().commitWaits(),
                holds[i], m.cut().windowMeanMillis(), tpcc.mean(m.from(), m.to()), tpcc.min(m.from(), m.to()));
        }
        Arrays.sort(holds);
        out.printf(Locale.ROOT, "%nTPC-C baseline before the backups: %,.0f tpmC (slowest second %,.0f); client errors: %d;"
            + " consistency violations: %d%n", baseline, tpcc.min(0, measured.get(0).from()), errors, violations);
        out.printf(Locale.ROOT, "longest commit held at a backup's cut (bucket bound): p50 %.1f ms, max %.1f ms%n",
            holds[holds.length / 2], holds[holds.length - 1]);
        double total = cpu.totalMicros() / 1e6;
        double others = Math.max(0, cpu.busyMicros() - oursMicros) / 1e6;
        out.printf(Locale.ROOT, "CPU: other processes used %.0f%% of the host's CPU time during the run%n",
            total == 0 ? 0 : 100 * others / total);
    }
}
