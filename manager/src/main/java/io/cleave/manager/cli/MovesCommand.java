package io.cleave.manager.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cleave.manager.move.MoveRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code cleave moves}: every move with its phase, progress, times, pause and outcome. */
@Command(name = "moves", mixinStandardHelpOptions = true,
        description = "Lists every move: keys, shards, phase, rows copied of the total, start and end, the clients'"
                + " pause at the cutover, and why it failed or waits.")
public final class MovesCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Mixin
    HomeOptions options;

    @Option(names = "--json", description = "Print the moves as a JSON list, for scripts.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        List<MoveRecord> moves = options.daemon().moves();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JSON.writeValueAsString(moves));
        } else if (moves.isEmpty()) {
            out.println("no moves yet");
        } else {
            print(moves, out);
        }
        out.flush();
        return ExitCodes.OK;
    }

    static void print(List<MoveRecord> moves, PrintWriter out) {
        String format = "%-4s %-10s %-14s %-9s %-12s %-22s %-9s %-20s %-20s %s%n";
        out.printf(format, "ID", "KEYSPACE", "KEYS", "FROM", "PHASE", "ROWS", "PAUSE", "STARTED", "ENDED", "NOTE");
        for (MoveRecord r : moves) {
            boolean keys = r.kind == io.cleave.manager.move.MoveKind.KEYS;
            String to = keys || r.targets.size() == 1 ? String.valueOf(r.target)
                    : r.targets.isEmpty() ? "-" : r.targets.get(0) + ".." + r.targets.get(r.targets.size() - 1);
            out.printf(format, r.id, keys ? r.keyspace : "(" + r.origin + ")", keys ? r.keys : r.what(), r.source + "->" + to,
                    r.phase.name().toLowerCase(Locale.ROOT), String.format(Locale.ROOT, "%,d/%,d", r.rowsCopied, r.rowsTotal),
                    r.phase.switched() ? String.format(Locale.ROOT, "%.0f ms", r.pauseMillis) : "-", time(r.created),
                    time(r.ended), r.message == null ? "" : r.message);
        }
    }

    private static String time(String iso) {
        return iso == null ? "-" : iso.length() > 19 ? iso.substring(0, 19).replace('T', ' ') : iso;
    }
}
