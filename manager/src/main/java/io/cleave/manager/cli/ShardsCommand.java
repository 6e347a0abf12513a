package io.cleave.manager.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cleave.manager.move.ShardsReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code cleave shards}: where the keys and rows are. */
@Command(name = "shards", mixinStandardHelpOptions = true,
        description = {"Shows rows and bytes per shard, and per keyspace each key range (range keyspaces) or run of"
                + " buckets (hash keyspaces) with its shard and size, the shard map's version and the moves under way.",
                "Sizes come from the shards' statistics (fast, estimated); --exact counts the rows."})
public final class ShardsCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Mixin
    HomeOptions options;

    @Option(names = "--json", description = "Print the report as JSON, for scripts.")
    boolean json;

    @Option(names = "--exact", description = "Count rows (slower) instead of estimating them from statistics.")
    boolean exact;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        ShardsReport report = options.daemon().shards(exact);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JSON.writeValueAsString(report));
        } else {
            print(report, out);
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** 1536 -> "1.5K", 3 * 2^20 -> "3.0M". */
    static String human(long bytes) {
        String[] units = {"B", "K", "M", "G", "T"};
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < units.length - 1) {
            v /= 1024;
            u++;
        }
        return u == 0 ? bytes + "B" : String.format(Locale.ROOT, "%.1f%s", v, units[u]);
    }

    static void print(ShardsReport report, PrintWriter out) {
        String approx = report.exact() ? "" : "~";
        out.printf("shard map version %d; sizes %s%n%n", report.mapVersion(), report.exact() ? "counted" : "from statistics");
        out.printf("%-6s %14s %10s%n", "SHARD", "ROWS", "BYTES");
        for (ShardsReport.ShardSize s : report.shards()) {
            out.printf("%-6d %14s %10s%n", s.shard(), s.rows() < 0 ? "unreachable" : String.format(Locale.ROOT, "%,d",
                    s.rows()), s.bytes() < 0 ? "-" : human(s.bytes()));
        }
        for (ShardsReport.KeyspaceLayout ks : report.keyspaces()) {
            out.printf("%nkeyspace %s (%s)%n", ks.name(), ks.function());
            out.printf("  %-22s %-6s %14s %10s%n", "KEYS", "SHARD", "ROWS", "BYTES");
            for (ShardsReport.Span span : ks.spans()) {
                out.printf("  %-22s %-6d %14s %10s%n", span.keys(), span.shard(),
                        span.rows() < 0 ? "-" : approx + String.format(Locale.ROOT, "%,d", span.rows()),
                        span.bytes() < 0 ? "-" : approx + human(span.bytes()));
            }
        }
        if (report.uniqueKeys() != null && !report.uniqueKeys().isEmpty()) {
            out.printf("%nglobal unique keys (lookup rows sharded by the value)%n");
            out.printf("  %-28s %-22s %-9s %-7s %14s %10s%n", "TABLE", "KEY", "STATE", "SHARDS", "ROWS", "BYTES");
            for (ShardsReport.UniqueKeyLookup k : report.uniqueKeys()) {
                out.printf("  %-28s %-22s %-9s %-7s %14s %10s%n", k.table(), k.key() + " (" + String.join(", ", k.columns())
                        + ")", k.state(), "0-" + (k.shards() - 1), k.rows() < 0 ? "-" : approx + String.format(Locale.ROOT,
                        "%,d", k.rows()), k.bytes() < 0 ? "-" : approx + human(k.bytes()));
            }
        }
        if (!report.moves().isEmpty()) {
            out.printf("%nmoves under way:%n");
            MovesCommand.print(report.moves(), out);
        }
    }
}
