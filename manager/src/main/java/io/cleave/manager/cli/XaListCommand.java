package io.cleave.manager.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cleave.proxy.server.XaRecovery;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** Lists the in-doubt XA branches on the running daemon's shards. */
@Command(name = "list", mixinStandardHelpOptions = true,
        description = {"Lists every prepared XA branch on the shards: its shard, its xid, its coordinator shard and"
                + " what recovery would do with it.", InDoubtTable.LEGEND})
public final class XaListCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Mixin
    HomeOptions options;

    @Option(names = "--json", description = "Print the branches as a JSON list, for scripts.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        List<XaRecovery.InDoubtBranch> branches = options.daemon().inDoubt();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JSON.writeValueAsString(branches));
        } else if (branches.isEmpty()) {
            out.println("no in-doubt transactions");
        } else {
            InDoubtTable.print(branches, out);
        }
        out.flush();
        return ExitCodes.OK;
    }
}
