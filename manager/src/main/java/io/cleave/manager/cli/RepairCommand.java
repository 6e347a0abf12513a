package io.cleave.manager.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cleave.manager.schema.SchemaRepair;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** Makes the shards' schemas alike again, through the running daemon. */
@Command(name = "repair", mixinStandardHelpOptions = true,
        description = {"Makes the shards' schemas alike again, losing nothing: a structure change some shards refused"
                + " (and the proxy could not undo) runs again on them; an object some shards lack is created there"
                + " from a shard that has it (the default shard's definition when it has one).",
                "What it cannot do (an object every shard has, but not alike; a change that fails again) is printed,"
                + " and the exit code is 1. 'cleave status' shows where the schemas differ."})
public final class RepairCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Mixin
    HomeOptions options;

    @Option(names = "--json", description = "Print what was repaired and what remains as JSON.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        SchemaRepair.Report report = options.daemon().repair();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JSON.writeValueAsString(report));
        } else {
            report.repaired().forEach(r -> out.printf("repaired: %s%n", r));
            report.remaining().forEach(r -> out.printf("left: %s%n", r));
            out.println(report.remaining().isEmpty() ? "the shards' schemas are alike" : "the shards' schemas still differ");
        }
        out.flush();
        return report.remaining().isEmpty() ? ExitCodes.OK : 1;
    }
}
