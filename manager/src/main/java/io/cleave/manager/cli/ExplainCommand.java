package io.cleave.manager.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.admin.ExplainReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** Shows how the running daemon's proxy routes a statement, without running it. */
@Command(name = "explain", mixinStandardHelpOptions = true,
        description = {"Shows the plan of a statement and the shards it reaches with its own values, as the running"
                + " daemon's proxy would route it. The statement does not run.",
                "Through the proxy itself: EXPLAIN CLEAVE <statement>."})
public final class ExplainCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Mixin
    HomeOptions options;

    @Option(names = "--json", description = "Print the explanation as JSON, for scripts.")
    boolean json;

    @Parameters(index = "0", paramLabel = "SQL", description = "The statement, quoted as one argument.")
    String sql;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        AdminClient client = options.daemon();
        ExplainReport report = client.explain(sql);
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JSON.writeValueAsString(report));
        } else {
            out.printf("statement: %s%nplan:      %s%nshards:    %s%n", report.statement(), report.plan(), report.shards());
        }
        out.flush();
        return ExitCodes.OK;
    }
}
