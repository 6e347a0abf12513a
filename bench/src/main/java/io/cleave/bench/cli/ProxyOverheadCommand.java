package io.cleave.bench.cli;

import io.cleave.bench.compare.Access;
import io.cleave.bench.compare.ComparisonRunner;
import io.cleave.bench.compare.Configuration;
import io.cleave.bench.compare.SysbenchDataset;
import io.cleave.bench.compare.SysbenchWorkload;
import io.cleave.bench.compare.Transport;
import io.cleave.bench.compare.Workload;
import io.cleave.bench.exec.ChildProcess;
import io.cleave.bench.home.Layout;
import io.cleave.bench.sysbench.Sysbench;
import io.cleave.bench.sysbench.SysbenchOptions;
import java.io.PrintStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "proxy-overhead", mixinStandardHelpOptions = true,
    description = {"The sysbench suite on one shard (config/single.yaml's shape): directly on the shard, through "
        + "HAProxy as an L4 relay in front of it (the floor any relaying hop costs) and through the proxy, the client "
        + "over TCP and over a Unix socket, alternating, each repeated.",
        "Per workload: throughput ratio proxy / direct, proxy CPU per statement and per transaction, shard CPU both "
            + "ways, latency percentiles; PNG charts and a Markdown table."})
final class ProxyOverheadCommand implements Callable<Integer> {
    static final String NAME = "proxy-overhead";

    @Spec
    CommandSpec spec;

    @Mixin
    HomeMixin home;

    @Mixin
    MeasureMixin measure;

    @Option(names = "--workloads", split = ",", defaultValue = "oltp_point_select,oltp_read_only,oltp_read_write,oltp_insert",
        description = "sysbench scripts, run in this order (default: ${DEFAULT-VALUE}).")
    List<String> workloads;

    @Option(names = "--tables", defaultValue = "4", description = "sbtest tables (default: ${DEFAULT-VALUE}).")
    int tables;

    @Option(names = "--table-size", defaultValue = "100000", description = "Rows per table (default: ${DEFAULT-VALUE}).")
    int tableSize;

    @Option(names = "--threads", defaultValue = "8", description = "sysbench client threads (default: ${DEFAULT-VALUE}).")
    int threads;

    @Option(names = "--ps-mode", defaultValue = "auto",
        description = "sysbench --db-ps-mode: auto (server-side prepared statements) or disable (default: ${DEFAULT-VALUE}).")
    String psMode;

    @Option(names = "--transports", split = ",", defaultValue = "tcp,unix",
        description = "How the client connects, each measured apart: tcp, unix (default: ${DEFAULT-VALUE}).")
    List<String> transports;

    @Option(names = "--proxy-transports", split = ",",
        description = "Cleave's proxy.transport values to compare (auto, epoll, io_uring, nio), each a configuration "
            + "on a home of its own, alternating with the others (default: one Cleave configuration on the daemon's "
            + "default transport).")
    List<String> proxyTransports = List.of();

    @Option(names = "--haproxy", defaultValue = "auto",
        description = "The haproxy binary of the relay configuration: a path, auto (scripts/haproxy provides one), "
            + "or none to leave the relay out (default: ${DEFAULT-VALUE}).")
    String haproxy;

    @Option(names = "--pipeline-depths", split = ",", defaultValue = "1",
        description = "The proxy's proxy.pipeline_depth, one Cleave configuration each (on a home of its own when "
            + "several): 1 sends every statement on a connection of its own, more lets statements of several clients "
            + "that meet in one event-loop pass share one (default: ${DEFAULT-VALUE}).")
    List<Integer> pipelineDepths;

    @Override
    public Integer call() throws Exception {
        String startedAt = ComparisonReporting.now();
        Sysbench sysbench = Sysbench.onPath();
        String sysbenchVersion = sysbench.version();
        SysbenchOptions options = new SysbenchOptions(workloads.get(0), tables, tableSize, threads, psMode, true);
        List<Workload> runs = new ArrayList<>();
        for (String w : workloads) {
            runs.add(new SysbenchWorkload(options.withWorkload(w), sysbench));
        }
        PrintStream log = System.out;
        ComparisonRunner runner = new ComparisonRunner(home.cleaveJar(), home.spec(Layout.SINGLE, 0, tables), log);
        Path relay = haproxyBinary();
        List<Configuration> configurations = new ArrayList<>();
        List<String> clientWays = new ArrayList<>();
        for (String t : transports) {
            Transport transport = Transport.valueOf(t.trim().toUpperCase(Locale.ROOT));
            clientWays.add(transport.label());
            configurations.add(Configuration.over(Access.DIRECT, transport));
            if (relay != null) {
                configurations.add(Configuration.over(Access.RELAY, transport));
            }
            configurations.addAll(cleave(transport, proxyTransports, pipelineDepths));
        }
        if (relay != null) {
            runner.withRelay(relay);
        }
        ComparisonRunner.Outcome outcome = runner.run(new SysbenchDataset(Layout.SINGLE, options, 4, sysbench), runs,
            measure.plan(configurations));

        Map<String, String> parameters = new LinkedHashMap<>();
        parameters.put("data", tables + " tables x " + tableSize + " rows on 1 shard, every table unsharded");
        parameters.put("clients", threads + " sysbench threads, --db-ps-mode=" + psMode + ", client -> shard, relay or "
            + "proxy over " + String.join(", then ", clientWays) + " (runs over each transport apart)");
        parameters.put("hops", "the proxy (one event loop" + (proxyTransports.isEmpty() ? ""
            : "; proxy.transport " + String.join(", ", proxyTransports) + ", each on a home of its own")
            + (pipelineDepths.equals(List.of(1)) ? "" : "; proxy.pipeline_depth " + pipelineDepths.stream()
                .map(String::valueOf).reduce((a, b) -> a + " / " + b).orElse("") + ", each on a home of its own")
            + ") and " + (relay == null ? "no relay"
            : "HAProxy (" + HaproxyVersion.of(relay) + ", mode tcp, nbthread 1)") + " reach the shard over its Unix socket");
        parameters.put("buffer pool", home.bufferPool);
        home.describeCpus(parameters);
        parameters.put("runs", measure.rounds + " rounds x " + measure.duration.toSeconds() + " s, each after a "
            + measure.warmup.toSeconds() + " s warm-up, configurations alternating");
        return ComparisonReporting.finish(spec, NAME, "Proxy overhead: sysbench directly on one shard vs through the proxy",
            startedAt, parameters, outcome, Map.of("sysbench", sysbenchVersion), measure.output(NAME), measure.doc,
            home.datadirRoot);
    }

    /**
     * The proxy's configurations with the client over {@code client}: one on the daemon's default
     * transport, or one per {@code proxy.transport} value, each with it in its home's proxy section.
     */
    static List<Configuration> cleave(Transport client, List<String> proxyTransports) {
        Configuration proxy = Configuration.over(Access.PROXY, client);
        if (proxyTransports.isEmpty()) {
            return List.of(proxy);
        }
        List<Configuration> out = new ArrayList<>();
        for (String io : proxyTransports) {
            String name = io.trim();
            out.add(proxy.with("Cleave proxy on " + name + ", client over " + client.label(), Map.of("transport", name)));
        }
        return out;
    }

    /**
     * As {@link #cleave(Transport, List)}, once per {@code proxy.pipeline_depth} in {@code depths}
     * (each with it in its home's proxy section), unless that is the default alone.
     */
    static List<Configuration> cleave(Transport client, List<String> proxyTransports, List<Integer> depths) {
        List<Configuration> plain = cleave(client, proxyTransports);
        if (depths.equals(List.of(1))) {
            return plain;
        }
        List<Configuration> out = new ArrayList<>();
        for (Configuration c : plain) {
            for (int depth : depths) {
                Map<String, String> options = new LinkedHashMap<>(c.proxyOptions());
                options.put("pipeline_depth", Integer.toString(depth));
                String suffix = ", client over " + client.label();
                String base = c.label().substring(0, c.label().length() - suffix.length());
                out.add(c.with(base + ", " + (depth == 1 ? "no pipelining" : "pipeline depth " + depth) + suffix,
                    options));
            }
        }
        return out;
    }

    /** The relay's binary, or null when it is left out. */
    private Path haproxyBinary() {
        if (haproxy.equals("none")) {
            return null;
        }
        if (!haproxy.equals("auto")) {
            return Path.of(haproxy);
        }
        Path script = BenchPaths.benchDir().toAbsolutePath().resolveSibling("scripts").resolve("haproxy");
        ChildProcess.Result r = ChildProcess.run(List.of(script.toString()), Duration.ofMinutes(5));
        if (r.exitCode() != 0) {
            throw new IllegalStateException(script + " failed (pass --haproxy PATH or --haproxy none):\n"
                + r.lastLines(10));
        }
        return Path.of(r.output().strip().lines().reduce((a, b) -> b).orElseThrow());
    }
}
