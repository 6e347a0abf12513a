package io.cleave.manager.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cleave.manager.move.RebalancePlan;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code cleave rebalance}: moves that even out the shards. */
@Command(name = "rebalance", mixinStandardHelpOptions = true,
        description = {"Plans moves that even out each keyspace over the shards (the fullest shard gives the emptiest"
                + " half the difference, until they are within a tenth of the average), prints them as a table, and"
                + " runs them one after another (follow them with 'cleave moves').",
                "--dry-run only prints the plan."})
public final class RebalanceCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    enum Measure { rows, bytes }

    @Mixin
    HomeOptions options;

    @Option(names = "--by", paramLabel = "rows|bytes", defaultValue = "rows", description = "What to even out (default: rows).")
    Measure by;

    @Option(names = "--dry-run", description = "Print the plan without moving anything.")
    boolean dryRun;

    @Option(names = "--json", description = "Print the plan as JSON.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        RebalancePlan plan = options.daemon().rebalance(by == Measure.bytes, dryRun);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JSON.writeValueAsString(plan));
        } else {
            print(plan, out, dryRun);
        }
        out.flush();
        return ExitCodes.OK;
    }

    static void print(RebalancePlan plan, PrintWriter out, boolean dryRun) {
        if (plan.steps().isEmpty()) {
            out.println("the shards are even (within a tenth of the average " + plan.by() + "): nothing to move");
            return;
        }
        String format = "%-6s %-10s %-16s %-5s %-4s %14s  %s%n";
        out.printf(format, "MOVE", "KEYSPACE", "KEYS", "FROM", "TO", plan.by().toUpperCase(Locale.ROOT), "WHY");
        for (int i = 0; i < plan.steps().size(); i++) {
            RebalancePlan.Step s = plan.steps().get(i);
            String id = i < plan.moves().size() ? String.valueOf(plan.moves().get(i)) : "-";
            out.printf(format, id, s.keyspace(), s.keys(), s.from(), s.to(), String.format(Locale.ROOT, "~%,d", s.amount()),
                    s.why());
        }
        for (int i = 0; i < plan.before().size(); i++) {
            out.printf("%s per shard: %s -> %s%n", plan.before().get(i).keyspace(), plan.before().get(i).perShard(),
                    plan.after().get(i).perShard());
        }
        out.println(dryRun ? "dry run: nothing moved" : plan.moves().size() + " moves queued; follow them with 'cleave moves'");
    }
}
