package io.cleave.manager.cli;

import io.cleave.manager.admin.RecoveryReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** Runs a recovery pass on the running daemon now. */
@Command(name = "recover", mixinStandardHelpOptions = true,
        description = {"Settles every in-doubt transaction whose coordinator shard is reachable now, as recovery does"
                + " at start and periodically: committed when the coordinator recorded the commit, else rolled back.",
                "Prints what is still in doubt after it."})
public final class XaRecoverCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        RecoveryReport report = options.daemon().recover();
        PrintWriter out = spec.commandLine().getOut();
        out.printf("recovery settled %d branch%s%n", report.settled(), report.settled() == 1 ? "" : "es");
        if (report.inDoubt().isEmpty()) {
            out.println("no in-doubt transactions left");
        } else {
            out.printf("still in doubt:%n");
            InDoubtTable.print(report.inDoubt(), out);
        }
        out.flush();
        return ExitCodes.OK;
    }
}
