package io.cleave.bench.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
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
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code bench import}: a one-shard Cleave home stands in for an existing server (a mariadbd with
 * a row binlog and sysbench's tables); a second home with several hashed shards imports its
 * database while sysbench oltp_write_only runs through the importing home's proxy the whole time.
 * Reports the import's duration, copy rate, the clients' pause at its cutover, sysbench's rate while
 * the tables lived on the source and after, the lowest one-second rate around the cutover, client
 * errors, and the CPU other processes took.
 */
@Command(name = "import", mixinStandardHelpOptions = true,
    description = {"Imports a sysbench database from a standalone server into --shards shards while sysbench"
        + " oltp_write_only runs through the proxy; reports the import rate, the clients' pause, throughput and errors."})
final class ImportBenchCommand implements Callable<Integer> {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Mixin
    HomeMixin home;

    @Option(names = "--shards", defaultValue = "4", description = "Shards of the importing home (default: ${DEFAULT-VALUE}).")
    int shards;

    @Option(names = "--tables", defaultValue = "4", description = "sbtest tables (default: ${DEFAULT-VALUE}).")
    int tables;

    @Option(names = "--table-size", defaultValue = "50000", description = "Rows per table (default: ${DEFAULT-VALUE}).")
    int tableSize;

    @Option(names = "--threads", defaultValue = "4", description = "sysbench threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--after", defaultValue = "20", description = "Seconds sysbench goes on after the import (default: ${DEFAULT-VALUE}).")
    int after;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = new PrintWriter(System.out, true);
        Sysbench sysbench = Sysbench.onPath();
        SysbenchOptions options = new SysbenchOptions("oltp_write_only", tables, tableSize, threads, "auto", false);
        HomeSpec sourceSpec = home.spec(Layout.SINGLE, 0, 0).withShards(1);
        HomeSpec targetSpec = home.spec(Layout.SYSBENCH, 0, tables).withShards(shards);
        try (BenchHome source = BenchHome.create(home.cleaveJar(), sourceSpec);
             BenchHome target = BenchHome.create(home.cleaveJar(), targetSpec)) {
            source.up();
            target.up();
            try (Connection c = source.shard(0, "").getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE sbtest");
            }
            out.printf("loading %d tables of %,d rows into the source ...%n", tables, tableSize);
            sysbench.prepare(source.sysbenchShard(0, "sbtest"), options.withWorkload("oltp_read_write"), 2);
            String url = "mysql://" + BenchHome.SHARD_USER + ":" + URLEncoder.encode(source.shardSecret(),
                StandardCharsets.UTF_8) + "@127.0.0.1:" + source.shardPort(0) + "/sbtest";
            HostCpu cpu0 = HostCpu.read();
            OwnCpu ours = new OwnCpu(List.of(source, target));
            long origin = System.nanoTime();
            JsonNode status = JSON.readTree(target.admin("POST", "/v1/import", JSON.writeValueAsString(
                java.util.Map.of("from", url))));
            double attached = seconds(origin);
            out.printf("attached %s; %d tables move while sysbench writes through the proxy%n", status.get("source").asText(),
                status.get("tables").size());
            SysbenchLoop load = new SysbenchLoop(sysbench, target.sysbenchProxy("sbtest"), options, origin);
            while (!status.get("state").asText().equals("done")) {
                if (status.get("state").asText().equals("failed")) {
                    load.close();
                    throw new IllegalStateException("the import failed: " + status.get("message"));
                }
                Thread.sleep(200);
                status = JSON.readTree(target.admin("GET", "/v1/import", null));
            }
            double done = seconds(origin);
            JsonNode move = JSON.readTree(target.admin("GET", "/v1/moves/" + status.get("move").asLong(), null));
            Thread.sleep(after * 1000L);
            load.close();
            double end = seconds(origin);
            HostCpu cpu = HostCpu.read().minus(cpu0);
            long own = ours.micros();
            double cutover = done - 2;
            long rows = move.get("rowsCopied").asLong();
            double copyS = move.get("copyMillis").asDouble() / 1000;
            out.println();
            out.println("| import | rows | MB | copy s | rows/s | import s (attach to detach) | catch-up events | pause ms"
                + " | held | sysbench tps on the source | tps on the shards | lowest 1 s tps around the cutover | errors |");
            out.println("|---|---|---|---|---|---|---|---|---|---|---|---|---|");
            out.printf(Locale.ROOT, "| %d tables into %d shards | %,d | %.1f | %.1f | %,.0f | %.1f | %,d | %.1f | %d | %,.0f"
                    + " | %,.0f | %,.0f | %d |%n", tables, shards, rows, move.get("bytesCopied").asDouble() / 1e6, copyS,
                rows / copyS, done - attached, move.get("catchUpEvents").asLong(), move.get("pauseMillis").asDouble(),
                move.get("heldStatements").asInt(), load.mean(0, cutover - 1), load.mean(done + 1, end),
                load.min(cutover - 3, done + 3), load.errors());
            double total = cpu.totalMicros() / 1e6;
            double others = Math.max(0, cpu.busyMicros() - own) / 1e6;
            out.printf(Locale.ROOT, "%nCPU: other processes used %.0f%% of the host's CPU time during the run%n",
                total == 0 ? 0 : 100 * others / total);
            load.failures().forEach(f -> out.println("sysbench failed: " + f));
            return load.errors() == 0 ? 0 : 1;
        }
    }

    private static double seconds(long origin) {
        return (System.nanoTime() - origin) / 1e9;
    }
}
