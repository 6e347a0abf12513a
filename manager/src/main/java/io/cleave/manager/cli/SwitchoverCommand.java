package io.cleave.manager.cli;

import io.cleave.manager.standby.SwitchoverReport;
import io.cleave.manager.standby.SwitchoverRequest;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code cleave switchover --home A}: the primary A and its standby swap roles, with both daemons up. */
@Command(name = "switchover", mixinStandardHelpOptions = true,
        description = {"Swaps the roles of this home (the primary) and its standby, both running: this home's proxy holds"
                + " new statements and waits for open transactions to end, this home's shards become read-only, the"
                + " standby applies exactly up to their GTID positions and becomes the primary (epoch + 1), the proxy"
                + " routes every shard to it and runs the held statements there, and this home's shards replicate it."
                + " Clients of this home's proxy see a pause, not an error.",
                "The standby's daemon tells this home its admin URL and token as it runs; until it has, give them."
                + " The pair remembers them (a later 'cleave switchover --home B' swaps back). Refused (exit 7) with nothing changed when the standby's"
                + " replicas are not running or lag, a move, import, scale or backup is under way, or open transactions"
                + " do not end within --drain-ms."})
public final class SwitchoverCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @Option(names = "--standby", paramLabel = "URL", description = "The standby daemon's admin URL (once, the first time).")
    String standby;

    @Option(names = "--standby-token-file", paramLabel = "FILE", description = "A copy of the standby's state/admin-token.")
    Path tokenFile;

    @Option(names = "--drain-ms", paramLabel = "MS", description = "How long open transactions may take to end while"
            + " statements are held (default 5000); past it the switchover is abandoned.")
    long drainMillis;

    @Option(names = "--catch-up-ms", paramLabel = "MS", description = "How long each replica may take to apply the"
            + " primary's last transactions (default 5000).")
    long catchUpMillis;

    @Option(names = "--max-lag-s", paramLabel = "S", description = "A replica further behind refuses the switchover"
            + " (default 5).")
    long maxLagSeconds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if ((standby == null) != (tokenFile == null)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --standby and --standby-token-file together");
        }
        String token = tokenFile == null ? null : Files.readString(tokenFile).trim();
        SwitchoverReport r = options.daemon().switchover(new SwitchoverRequest(standby, token, drainMillis, catchUpMillis,
                maxLagSeconds));
        PrintWriter out = spec.commandLine().getOut();
        for (SwitchoverReport.ShardSwitch s : r.shards()) {
            out.printf("shard %d: switched at GTID %s%n", s.shard(), s.gtid().isEmpty() ? "(none)" : s.gtid());
        }
        out.printf("%s is the primary at epoch %d; this home is its standby. Statements held %.1f ms (%d held);"
                + " %.2f s in all%n", r.primary(), r.epoch(), r.pauseMillis(), r.held(), r.millis() / 1000.0);
        if (r.standbyProxyPauseMillis() >= 0) {
            out.printf("the standby's proxy, which forwarded its clients here, held them %.1f ms at most and now serves"
                    + " them on its own shards%n", r.standbyProxyPauseMillis());
        }
        out.flush();
        return ExitCodes.OK;
    }
}
