package io.cleave.manager.cli;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.move.MoveRecord;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code cleave shard-table DB.TABLE --keyspace K --column C | --reference | --unsharded SHARD}. */
@Command(name = "shard-table", mixinStandardHelpOptions = true,
        description = {"Gives a table that lives on one shard a new rule while clients keep working: sharded by a"
                + " column on a keyspace (its rows move to the shards holding their keys), a reference table (copied to"
                + " every shard), or another home shard. Nothing is dumped and nothing restarts; the rule is kept in the"
                + " home's state from the cutover on, over the config's.",
                "Prints the move's id at once; with --wait follows it to the end (exit 0 when done, 1 with the reason"
                        + " when it failed)."})
public final class ShardTableCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @Mixin
    FollowOptions follow;

    @Parameters(index = "0", paramLabel = "DB.TABLE")
    String table;

    @Option(names = "--keyspace", paramLabel = "K", description = "Shard the table on keyspace K ...")
    String keyspace;

    @Option(names = "--column", paramLabel = "C", description = "... by its column C.")
    String column;

    @Option(names = "--reference", description = "Make it a reference table: a full copy on every shard.")
    boolean reference;

    @Option(names = "--unsharded", paramLabel = "SHARD", description = "Move it whole to shard SHARD.")
    Integer unsharded;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        Map<String, Object> rule = rule();
        AdminClient daemon = options.daemon();
        MoveRecord r = daemon.shardTable(table, rule);
        PrintWriter out = spec.commandLine().getOut();
        if (!follow.await || !follow.json) {
            out.println(follow.json ? MoveFollower.JSON.writeValueAsString(r) : "move " + r.id + ": " + r.what() + " from shard "
                    + r.source + " to shards " + r.targets + ", becoming " + r.tables.get(0).rule
                    + "; follow it with 'cleave moves'");
            out.flush();
        }
        return follow.await ? MoveFollower.follow(daemon, r.id, out, follow.json) : ExitCodes.OK;
    }

    private Map<String, Object> rule() {
        int given = (keyspace != null || column != null ? 1 : 0) + (reference ? 1 : 0) + (unsharded != null ? 1 : 0);
        if (given != 1) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "give one rule: --keyspace K --column C, --reference, or --unsharded SHARD");
        }
        if (reference) {
            return Map.of("reference", true);
        }
        if (unsharded != null) {
            return Map.of("unsharded", unsharded);
        }
        if (keyspace == null || column == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "a sharded table needs --keyspace and --column");
        }
        return Map.of("keyspace", keyspace, "column", column);
    }
}
