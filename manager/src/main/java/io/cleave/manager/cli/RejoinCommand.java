package io.cleave.manager.cli;

import io.cleave.manager.coordination.RejoinReport;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code cleave rejoin --home A --primary URL --primary-token-file F}: the old primary A becomes the new primary's standby. */
@Command(name = "rejoin", mixinStandardHelpOptions = true,
        description = {"Makes an old primary, fenced since its standby took over, the standby of the new primary:"
                + " each shard's GTIDs are checked against the new primary's, then it replicates from it.",
                "Refused, changing nothing, when a shard holds transactions the new primary lacks (never acknowledged"
                        + " to a client): rebuild this home with 'cleave standby' then."})
public final class RejoinCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @Option(names = "--primary", required = true, paramLabel = "URL", description = "The new primary's admin URL.")
    String primary;

    @Option(names = "--primary-token-file", required = true, paramLabel = "FILE",
            description = "A copy of the new primary's state/admin-token.")
    Path tokenFile;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        RejoinReport r = options.daemon().rejoin(primary, Files.readString(tokenFile).trim());
        PrintWriter out = spec.commandLine().getOut();
        for (String s : r.shards()) {
            out.println(s);
        }
        if (r.joined()) {
            out.printf("rejoined as the standby of %s at epoch %d%n", r.primary(), r.epoch());
        } else {
            out.printf("refused: the shards above hold transactions %s lacks; they were never acknowledged to a client."
                    + " Rebuild this home as its standby with 'cleave standby'%n", r.primary());
        }
        out.flush();
        return r.joined() ? ExitCodes.OK : ExitCodes.REFUSED;
    }
}
