package io.cleave.manager.cli;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.config.ByteSize;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.scale.ScaleStatus;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code cleave scale --shards N [--wait]}, {@code cleave scale --status}, {@code cleave scale --purge}. */
@Command(name = "scale", mixinStandardHelpOptions = true,
        description = {"Changes how many shards the home runs while clients keep working.",
                "Up: the new instances are initialized from the datadir template and started, every buffer pool is"
                        + " resized online to its share of buffer_pool (SET GLOBAL innodb_buffer_pool_size, no restart),"
                        + " the new shards get the schema and the reference tables, then buckets and ranges move until"
                        + " the shards hold even shares.",
                "Down: every key and table moves off the shards that go, the map stops naming them, they stop (their"
                        + " datadirs stay until --purge), the remaining buffer pools grow.",
                "From then on the home's state, not the config's 'shards', says how many shards run; 'cleave status'"
                        + " says so."})
public final class ScaleCommand implements Callable<Integer> {

    private static final long POLL_MILLIS = 500;

    @Mixin
    HomeOptions options;

    @Mixin
    FollowOptions follow;

    @Option(names = "--shards", paramLabel = "N", description = "The number of shards to run.")
    Integer shards;

    @Option(names = "--status", description = "Show the last scale.")
    boolean status;

    @Option(names = "--purge", description = "Delete the datadirs of shards a scale stopped.")
    boolean purge;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        int given = (shards != null ? 1 : 0) + (status ? 1 : 0) + (purge ? 1 : 0);
        if (given != 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --shards N, --status or --purge");
        }
        AdminClient daemon = options.daemon();
        PrintWriter out = spec.commandLine().getOut();
        if (purge) {
            List<String> deleted = daemon.purgeScaledAway();
            out.println(deleted.isEmpty() ? "nothing to purge" : "deleted:\n  " + String.join("\n  ", deleted));
            out.flush();
            return ExitCodes.OK;
        }
        ScaleStatus s = status ? daemon.scaleStatus() : daemon.startScale(shards);
        if (!follow.await) {
            print(out, s);
            return s.state().equals("failed") ? ExitCodes.FAILED : ExitCodes.OK;
        }
        String lastState = null;
        int followed = 0;
        while (!s.state().equals("done") && !s.state().equals("failed")) {
            if (!follow.json && !s.state().equals(lastState)) {
                out.printf("scale %d -> %d: %s%n", s.from(), s.to(), s.state());
                out.flush();
                lastState = s.state();
            }
            if (!follow.json && followed < s.moves().size()) {
                // Each move the scale starts gets its own progress, one after another.
                MoveRecord m = daemon.move(s.moves().get(followed));
                out.printf("  move %d: %s from shard %d to %s%n", m.id, m.what(), m.source, m.targets.isEmpty()
                        ? "shard " + m.target : "shards " + m.targets);
                MoveFollower.follow(daemon, m.id, out, false);
                followed++;
            } else {
                Thread.sleep(POLL_MILLIS);
            }
            s = daemon.scaleStatus();
        }
        print(out, s);
        return s.state().equals("done") ? ExitCodes.OK : ExitCodes.FAILED;
    }

    private void print(PrintWriter out, ScaleStatus s) throws IOException {
        if (follow.json) {
            out.println(MoveFollower.JSON.writeValueAsString(s));
        } else {
            out.printf(Locale.ROOT, "scale %d -> %d shards: %s (buffer pool %s each, %d of %d moves ended)%s%n", s.from(),
                    s.to(), s.state(), ByteSize.format(s.bufferPool()), s.movesDone(), s.moves().size(),
                    s.message() == null ? "" : ": " + s.message());
        }
        out.flush();
    }
}
