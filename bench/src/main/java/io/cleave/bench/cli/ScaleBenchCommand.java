package io.cleave.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.bench.compare.SysbenchDataset;
import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.HomeSpec;
import io.cleave.bench.home.Layout;
import io.cleave.bench.measure.HostCpu;
import io.cleave.bench.online.OwnCpu;
import io.cleave.bench.online.SysbenchLoop;
import io.cleave.bench.sysbench.Sysbench;
import io.cleave.bench.sysbench.SysbenchOptions;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code bench scale}: a home with sysbench's tables hashed over --shards shards scales up to --up
 * shards, then down to --down, while sysbench oltp_write_only runs through the proxy the whole
 * time. Reports each scale's duration and moves, the clients' longest pause at a cutover,
 * sysbench's rate before, during and after each, its lowest one-second rate, errors, and the CPU
 * other processes took.
 */
@Command(name = "scale", mixinStandardHelpOptions = true,
    description = {"Scales a sysbench home from --shards to --up, then to --down shards under sysbench oltp_write_only;"
        + " reports durations, moves, pauses, throughput during each scale and errors."})
final class ScaleBenchCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    HomeMixin home;

    @Option(names = "--shards", defaultValue = "4", description = "Shards at the start (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--up", defaultValue = "6", description = "Shards after scaling up (default: ${DEFAULT-VALUE}).")
    int up;

    @Option(names = "--down", defaultValue = "3", description = "Shards after scaling down (default: ${DEFAULT-VALUE}).")
    int down;

    @Option(names = "--tables", defaultValue = "4", description = "sbtest tables (default: ${DEFAULT-VALUE}).")
    int tables;

    @Option(names = "--table-size", defaultValue = "25000", description = "Rows per table (default: ${DEFAULT-VALUE}).")
    int tableSize;

    @Option(names = "--threads", defaultValue = "4", description = "sysbench threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--baseline", defaultValue = "20", description = "Seconds of sysbench before and between the scales (default: ${DEFAULT-VALUE}).")
    int baseline;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = new PrintWriter(System.out, true);
        Sysbench sysbench = Sysbench.onPath();
        SysbenchOptions options = new SysbenchOptions("oltp_write_only", tables, tableSize, threads, "auto", false);
        HomeSpec spec = home.spec(Layout.SYSBENCH, 0, tables).withShards(shards);
        try (BenchHome h = BenchHome.create(home.cleaveJar(), spec, Math.max(up, shards))) {
            h.up();
            out.printf("loading %d tables of %,d rows through the proxy ...%n", tables, tableSize);
            new SysbenchDataset(Layout.SYSBENCH, options, 2, sysbench).load(h);
            HostCpu cpu0 = HostCpu.read();
            OwnCpu ours = new OwnCpu(List.of(h));
            long origin = System.nanoTime();
            SysbenchLoop load = new SysbenchLoop(sysbench, h.sysbenchProxy("sbtest"), options, origin);
            Thread.sleep(baseline * 1000L);
            double[] upWindow = scale(h, up, origin, out);
            Thread.sleep(baseline * 1000L);
            double[] downWindow = scale(h, down, origin, out);
            Thread.sleep(baseline * 1000L);
            load.close();
            double end = seconds(origin);
            HostCpu cpu = HostCpu.read().minus(cpu0);
            long own = ours.micros();
            out.println();
            out.println("| scale | s | moves | longest pause ms | tps before | tps during | lowest 1 s tps during | tps after |");
            out.println("|---|---|---|---|---|---|---|---|");
            row(out, load, shards + " -> " + up, upWindow, 0, downWindow[0]);
            row(out, load, up + " -> " + down, downWindow, upWindow[1], end);
            out.printf(Locale.ROOT, "%nsysbench: %,d transactions, %d errors%n", load.transactions(), load.errors());
            double total = cpu.totalMicros() / 1e6;
            double others = Math.max(0, cpu.busyMicros() - own) / 1e6;
            out.printf(Locale.ROOT, "CPU: other processes used %.0f%% of the host's CPU time during the run%n",
                total == 0 ? 0 : 100 * others / total);
            load.failures().forEach(f -> out.println("sysbench failed: " + f));
            return load.errors() == 0 ? 0 : 1;
        }
    }

    /** Runs one scale; returns {start, end, moves, longest pause ms}. */
    private static double[] scale(BenchHome h, int to, long origin, PrintWriter out) throws Exception {
        double start = seconds(origin);
        JsonNode s = JSON.readTree(h.admin("POST", "/v1/scale", "{\"shards\": " + to + "}"));
        while (!s.get("state").asText().equals("done")) {
            if (s.get("state").asText().equals("failed")) {
                throw new IllegalStateException("the scale failed: " + s.get("message"));
            }
            Thread.sleep(500);
            s = JSON.readTree(h.admin("GET", "/v1/scale", null));
        }
        double end = seconds(origin);
        double pause = 0;
        for (JsonNode id : s.get("moves")) {
            pause = Math.max(pause, JSON.readTree(h.admin("GET", "/v1/moves/" + id.asLong(), null)).get("pauseMillis").asDouble());
        }
        out.printf(Locale.ROOT, "scale to %d shards done in %.1f s, %d moves%n", to, end - start, s.get("moves").size());
        return new double[] {start, end, s.get("moves").size(), pause};
    }

    private static void row(PrintWriter out, SysbenchLoop load, String what, double[] w, double before, double after) {
        out.printf(Locale.ROOT, "| %s | %.1f | %d | %.1f | %,.0f | %,.0f | %,.0f | %,.0f |%n", what, w[1] - w[0], (int) w[2],
            w[3], load.mean(before, w[0]), load.mean(w[0], w[1]), load.min(w[0], w[1]), load.mean(w[1], after));
    }

    private static double seconds(long origin) {
        return (System.nanoTime() - origin) / 1e9;
    }
}
