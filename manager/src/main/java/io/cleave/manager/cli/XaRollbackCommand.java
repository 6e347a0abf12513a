package io.cleave.manager.cli;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.util.concurrent.Callable;

/** Rolls back one in-doubt transaction by hand. */
@Command(name = "rollback", mixinStandardHelpOptions = true,
        description = {"Rolls back an in-doubt transaction on every shard where it is prepared.",
                "Refused when its coordinator shard recorded its commit (its other shards committed), unless"
                        + " --force; when the coordinator cannot be reached, the choice is yours.",
                "Always refused while the proxy is committing the transaction itself (COMMIT_RUNNING)."})
public final class XaRollbackCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @Parameters(index = "0", paramLabel = "XID", description = "The transaction's xid, as 'cleave xa list' shows it.")
    String xid;

    @Option(names = "--force", description = "Go ahead even against the coordinator's recorded decision.")
    boolean force;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        return XaResolution.run(options, xid, false, force, spec.commandLine().getOut());
    }
}
