package io.cleave.manager.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.move.MoveRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** {@code cleave move KEYSPACE KEYS --to SHARD} and {@code cleave move --cancel ID}. */
@Command(name = "move", mixinStandardHelpOptions = true,
        description = {"Moves keys of a keyspace to another shard while clients keep working: KEYS is a key (7) or a"
                + " key range (1-50, 76-) of a range keyspace, or buckets (bucket:0-63) of a hash keyspace. Every table"
                + " of the keyspace moves its rows for those keys together.",
                "Prints the move's id at once; with --wait follows it to the end (exit 0 when done, 1 with the reason"
                        + " when it failed or was cancelled).",
                "--cancel ID stops a move that has not cut over yet and deletes its copy on the target."})
public final class MoveCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = MoveFollower.JSON;

    @Mixin
    HomeOptions options;

    @Mixin
    FollowOptions follow;

    @Parameters(index = "0", arity = "0..1", paramLabel = "KEYSPACE")
    String keyspace;

    @Parameters(index = "1", arity = "0..1", paramLabel = "KEYS")
    String keys;

    @Option(names = "--to", paramLabel = "SHARD", description = "The shard the keys go to.")
    Integer to;

    @Option(names = "--cancel", paramLabel = "ID", description = "Cancel move ID (only before its cutover).")
    Long cancel;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        if (cancel != null) {
            if (keyspace != null || to != null) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--cancel ID takes no keyspace, keys or --to");
            }
            MoveRecord r = options.daemon().cancelMove(cancel);
            print(out, r, "cancelling move " + r.id + " (" + r.keys + " of " + r.keyspace + "); its copy on shard "
                    + r.target + " is being deleted");
            return follow.await ? follow(options.daemon(), r.id, out) : ExitCodes.OK;
        }
        if (keyspace == null || keys == null || to == null) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "give KEYSPACE KEYS --to SHARD (e.g. cleave move warehouse 1-50 --to 2), or --cancel ID");
        }
        AdminClient daemon = options.daemon();
        MoveRecord r = daemon.startMove(keyspace, keys, to);
        if (!follow.await || !follow.json) {
            print(out, r, "move " + r.id + ": keys " + r.keys + " of " + r.keyspace + " from shard " + r.source
                    + " to shard " + r.target + " (" + r.tables.size() + " tables); follow it with 'cleave moves'");
        }
        return follow.await ? follow(daemon, r.id, out) : ExitCodes.OK;
    }

    private int follow(AdminClient daemon, long id, PrintWriter out) throws IOException, InterruptedException {
        return MoveFollower.follow(daemon, id, out, follow.json);
    }

    private void print(PrintWriter out, MoveRecord r, String text) throws IOException {
        out.println(follow.json ? JSON.writeValueAsString(r) : text);
        out.flush();
    }
}
