package io.cleave.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.bench.compare.TpccDataset;
import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.HomeSpec;
import io.cleave.bench.home.Layout;
import io.cleave.bench.measure.HostCpu;
import io.cleave.bench.move.LatencyProbe;
import io.cleave.bench.tpcc.check.ConsistencyCheck;
import io.cleave.bench.tpcc.run.RunResult;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import javax.sql.DataSource;

/**
 * {@code bench move}: moves one TPC-C warehouse back and forth between two shards while TPC-C runs
 * through the proxy, and reports per move the copy rate (rows/s, MB/s), the catch-up rate, the
 * pause the proxy held clients for, the slowest statement a probe client saw on the moving
 * warehouse, and TPC-C's throughput before and during the moves, with the CPU other processes took.
 */
@Command(name = "move", mixinStandardHelpOptions = true,
    description = {"Moves a TPC-C warehouse between two shards --moves times while TPC-C runs through the proxy;"
        + " per move: copy rate, catch-up rate, clients' pause at the cutover (proxy and probe), TPC-C throughput dip."})
final class MoveBenchCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    HomeMixin home;

    @Option(names = "--warehouses", defaultValue = "2", description = "Warehouses, half on each of 2 shards (default: ${DEFAULT-VALUE}).")
    int warehouses;

    @Option(names = "--connections", defaultValue = "4", description = "TPC-C terminals (default: ${DEFAULT-VALUE}).")
    int connections;

    @Option(names = "--moves", defaultValue = "3", description = "Moves of the first warehouse, back and forth (default: ${DEFAULT-VALUE}).")
    int moves;

    @Option(names = "--before", defaultValue = "20s", converter = DurationConverter.class,
        description = "TPC-C time before the first move, the baseline (default: ${DEFAULT-VALUE}).")
    Duration before;

    @Option(names = "--gap", defaultValue = "5s", converter = DurationConverter.class,
        description = "Pause between moves (default: ${DEFAULT-VALUE}).")
    Duration gap;

    @Option(names = "--loader-threads", defaultValue = "2", description = "Threads loading TPC-C (default: ${DEFAULT-VALUE}).")
    int loaderThreads;

    @Override
    public Integer call() throws Exception {
        HomeSpec spec = home.spec(Layout.TPCC, warehouses, 0).withShards(2);
        PrintWriter out = new PrintWriter(System.out, true);
        try (BenchHome h = BenchHome.create(home.cleaveJar(), spec)) {
            h.up();
            out.printf("loading %d warehouses ...%n", warehouses);
            new TpccDataset(warehouses, loaderThreads).load(h);
            try (Connection c = h.proxy("tpcc").getConnection(); Statement s = c.createStatement()) {
                // A move copies and checks rows by primary key; TPC-C's history has none.
                s.execute("ALTER TABLE history ADD COLUMN h_id BIGINT NOT NULL AUTO_INCREMENT PRIMARY KEY");
            }
            int warehouse = spec.firstWarehouse(0);
            DataSource proxy = h.proxy("tpcc").withServerPreparedStatements();
            HostCpu cpu0 = HostCpu.read();
            long ours0 = BackgroundTpcc.ourCpu(h);
            BackgroundTpcc tpcc = new BackgroundTpcc(proxy, warehouses, connections);
            long origin = tpcc.origin();
            LatencyProbe probe = new LatencyProbe(proxy, "SELECT w_ytd FROM warehouse WHERE w_id = " + warehouse, origin);
            Thread.sleep(before.toMillis());
            List<long[]> windows = new ArrayList<>();
            List<JsonNode> records = new ArrayList<>();
            for (int i = 0; i < moves; i++) {
                int to = i % 2 == 0 ? 1 : 0;
                long start = System.nanoTime() - origin;
                JsonNode started = JSON.readTree(h.admin("POST", "/v1/moves", "{\"keyspace\": \"warehouse\", \"keys\": \""
                    + warehouse + "\", \"to\": " + to + "}"));
                long id = started.get("id").asLong();
                JsonNode r = started;
                while (!r.get("phase").asText().equals("DONE")) {
                    if (r.get("phase").asText().equals("FAILED") || r.get("phase").asText().equals("CANCELLED")) {
                        throw new IllegalStateException("move " + id + " ended " + r.get("phase") + ": " + r.get("message"));
                    }
                    Thread.sleep(200);
                    r = JSON.readTree(h.admin("GET", "/v1/moves/" + id, null));
                }
                windows.add(new long[] {start, System.nanoTime() - origin});
                records.add(r);
                out.printf("move %d of warehouse %d to shard %d done: %s rows, pause %.1f ms%n", id, warehouse, to,
                    r.get("rowsCopied"), r.get("pauseMillis").asDouble());
                Thread.sleep(gap.toMillis());
            }
            List<RunResult> results = tpcc.stop();
            probe.close();
            HostCpu cpu = HostCpu.read().minus(cpu0);
            long ours = BackgroundTpcc.ourCpu(h) - ours0;
            long errors = results.stream().mapToLong(RunResult::totalErrors).sum();
            var violations = ConsistencyCheck.check(new ArrayList<>(h.shards("tpcc")), warehouses);
            report(out, records, windows, tpcc, probe, errors, violations.size(), cpu, ours);
            return errors == 0 && violations.isEmpty() && probe.errors().isEmpty() ? 0 : 1;
        }
    }

    private void report(PrintWriter out, List<JsonNode> records, List<long[]> windows, BackgroundTpcc tpcc,
                        LatencyProbe probe, long errors, int violations, HostCpu cpu, long oursMicros) {
        out.println();
        out.println("| move | rows | MB | copy s | rows/s | MB/s | catch-up events | catch-up rows applied | proxy pause ms"
            + " | held | probe max ms | TPC-C tpmC during (min 1 s) |");
        out.println("|---|---|---|---|---|---|---|---|---|---|---|---|");
        double baseline = tpcc.mean(0, windows.get(0)[0] / 1e9);
        double[] pauses = new double[records.size()];
        double[] probes = new double[records.size()];
        for (int i = 0; i < records.size(); i++) {
            JsonNode r = records.get(i);
            double copyS = r.get("copyMillis").asDouble() / 1000;
            double mb = r.get("bytesCopied").asDouble() / 1e6;
            long[] w = windows.get(i);
            pauses[i] = r.get("pauseMillis").asDouble();
            probes[i] = probe.maxLatency(w[0], w[1]) / 1e6;
            out.printf(Locale.ROOT, "| %d: %s -> %s | %,d | %.1f | %.1f | %,.0f | %.2f | %,d | %,d | %.1f | %d | %.1f | %,.0f (%,.0f) |%n",
                r.get("id").asLong(), r.get("source"), r.get("target"), r.get("rowsCopied").asLong(), mb, copyS,
                r.get("rowsCopied").asDouble() / copyS, mb / copyS, r.get("catchUpEvents").asLong(),
                r.get("rowsApplied").asLong(), pauses[i], r.get("heldStatements").asInt(), probes[i],
                tpcc.mean(w[0] / 1e9, w[1] / 1e9), tpcc.min(w[0] / 1e9, w[1] / 1e9));
        }
        Arrays.sort(pauses);
        Arrays.sort(probes);
        out.printf(Locale.ROOT, "%nTPC-C baseline before the moves: %,.0f tpmC; client errors: %d; probe errors: %d;"
                + " consistency violations: %d%n", baseline, errors, probe.errors().size(), violations);
        out.printf(Locale.ROOT, "pause held by the proxy: p50 %.1f ms, max %.1f ms; slowest probe statement per move:"
            + " p50 %.1f ms, max %.1f ms%n", pauses[pauses.length / 2], pauses[pauses.length - 1],
            probes[probes.length / 2], probes[probes.length - 1]);
        double total = cpu.totalMicros() / 1e6;
        double others = Math.max(0, cpu.busyMicros() - oursMicros) / 1e6;
        out.printf(Locale.ROOT, "CPU: other processes used %.0f%% of the host's CPU time during the run%n",
            total == 0 ? 0 : 100 * others / total);
    }
}
