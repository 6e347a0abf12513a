package io.cleave.bench.cli;

import io.cleave.bench.compare.ResultsDocument;
import io.cleave.bench.home.BenchHome;
import io.cleave.bench.home.Layout;
import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.measure.LoadAverage;
import io.cleave.bench.memory.DaemonMemory;
import io.cleave.bench.memory.IdleClients;
import io.cleave.bench.memory.MemoryTable;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "connection-memory", mixinStandardHelpOptions = true,
    description = {"What idle client connections cost the daemon: a one-shard home, client connections that log in "
        + "through the proxy, run SELECT 1 and stay idle, opened in steps; at each step the daemon's RSS and its heap "
        + "after a full GC (jcmd), then again once they are closed.",
        "Per step: memory added over none open, per connection and per 1,000; a Markdown table."})
final class ConnectionMemoryCommand implements Callable<Integer> {
    static final String NAME = "connection-memory";

    @Spec
    CommandSpec spec;

    @Mixin
    HomeMixin home;

    @Option(names = "--counts", split = ",", defaultValue = "1000,2000",
        description = "Idle connections open at each step, growing (default: ${DEFAULT-VALUE}).")
    List<Integer> counts;

    @Option(names = "--warmup-connections", defaultValue = "200",
        description = "Connections opened and closed before the first reading, so classes, pools and buffers are "
            + "in place (default: ${DEFAULT-VALUE}).")
    int warmup;

    @Option(names = "--doc", description = "Markdown document whose connection-memory section is replaced, "
        + "e.g. bench/RESULTS.md.")
    Path doc;

    @Override
    public Integer call() throws Exception {
        String startedAt = ComparisonReporting.now();
        LoadAverage loadBefore = LoadAverage.read();
        MemoryTable table = new MemoryTable();
        Path jcmd = DaemonMemory.jcmdOfThisJdk();
        try (BenchHome h = BenchHome.create(home.cleaveJar(), home.spec(Layout.SINGLE, 0, 0))) {
            h.up();
            long pid = h.daemonPid();
            JdbcTarget proxy = h.proxy("");
            try (IdleClients warm = new IdleClients(proxy)) {
                warm.growTo(warmup);
            }
            table.add("none", 0, DaemonMemory.read(pid, jcmd));
            int last = 0;
            try (IdleClients clients = new IdleClients(proxy)) {
                for (int count : counts) {
                    clients.growTo(count);
                    last = count;
                    table.add(String.format("%,d idle", count), count, DaemonMemory.read(pid, jcmd));
                }
            }
            table.add(String.format("%,d closed again", last), 0, DaemonMemory.read(pid, jcmd));
        }
        String text = "Measured " + startedAt + " to " + ComparisonReporting.now() + " on "
            + Runtime.getRuntime().availableProcessors() + " cores; load average (1 min) " + loadBefore.one()
            + " before and " + LoadAverage.read().one() + " after.\n\n"
            + "Command: `" + ComparisonReporting.command(spec).strip() + "`\n\n"
            + "Settings: one shard, buffer pool " + home.bufferPool + "; client connections by Connector/J"
            + " (no TLS) from the benchmark's own JVM, so the daemon's figures hold only the proxy's side; "
            + warmup + " connections opened and closed before the first reading; each reading after a full GC"
            + " in the daemon and a 1 s pause.\n\n"
            + table.markdown();
        PrintWriter out = spec.commandLine().getOut();
        out.println(text);
        if (doc != null) {
            ResultsDocument.splice(doc, NAME, "#### Memory of idle client connections\n\n" + text);
            out.println("updated " + doc);
        }
        out.flush();
        return 0;
    }
}
