package io.cleave.manager.cli;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.coordination.RejoinReport;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.KeptAside;
import io.cleave.manager.rebuild.AcknowledgedStandby;
import io.cleave.manager.rebuild.HomeRebuild;
import io.cleave.manager.rebuild.RebuildDecision;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.standby.StandbyReport;
import io.cleave.manager.standby.StandbySeed;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.stream.Stream;

/**
 * {@code cleave rejoin --home A --primary URL --primary-token-file F [--rebuild --via LOCATION]}: the old primary A
 * becomes the new primary's standby, rebuilt from a backup of it when its shards hold transactions it lacks.
 */
@Command(name = "rejoin", mixinStandardHelpOptions = true,
        description = {"Makes an old primary, fenced since its standby took over, the standby of the new primary:"
                + " each shard's GTIDs are checked against the new primary's, then it replicates from it. Its daemon must"
                + " run (it checks the shards and knows the pair).",
                "Refused, changing nothing, when a shard holds transactions the new primary lacks (never acknowledged"
                        + " to a client), unless --rebuild is given: then the daemon is stopped, the home is put aside under"
                        + " HOME/errant/EPOCH (each shard's datadir as shard-N, with ERRANT.txt naming the GTIDs; nothing is"
                        + " deleted), the home is seeded again in place as the new primary's standby from a backup of it at"
                        + " one cut (as 'cleave standby' seeds, with this home's own ports, addresses and server ids), and"
                        + " its daemon is started again in the background; the command ends once every shard replicates"
                        + " and the new primary waits for their acknowledgements (semi-sync)."})
public final class RejoinCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @Mixin
    LocationOptions location;

    @Option(names = "--primary", required = true, paramLabel = "URL", description = "The new primary's admin URL.")
    String primary;

    @Option(names = "--primary-token-file", required = true, paramLabel = "FILE",
            description = "A copy of the new primary's state/admin-token.")
    Path tokenFile;

    @Option(names = "--rebuild", description = "When a shard holds transactions the new primary lacks: keep them aside"
            + " under HOME/errant/EPOCH and rebuild this home as the new primary's standby (needs --via). Run again after"
            + " a rebuild that failed: it seeds the home again.")
    boolean rebuild;

    @Option(names = "--via", paramLabel = "LOCATION", description = "With --rebuild: where the new primary's seeding"
            + " backup goes, a directory or s3://BUCKET/PREFIX it writes and this host reads.")
    String via;

    @Option(names = "--wait-s", paramLabel = "SECONDS", defaultValue = "180", description = "With --rebuild: how long to"
            + " wait for the restarted daemon's replicas to run and be waited for (default: ${DEFAULT-VALUE}).")
    long waitSeconds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        if (rebuild && via == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--rebuild needs --via LOCATION: where the new"
                    + " primary backs up to seed this home");
        }
        String token = Files.readString(tokenFile).trim();
        PrintWriter out = spec.commandLine().getOut();
        CleaveHome home = options.home();
        Optional<AdminClient> daemon = AdminClient.connect(home);
        Optional<RejoinReport> report = Optional.empty();
        if (daemon.isPresent()) {
            report = Optional.of(daemon.get().rejoin(primary, token));
            report.get().shards().forEach(out::println);
        }
        RebuildDecision decision = RebuildDecision.of(rebuild, report, HomeRebuild.cutShort(home));
        switch (decision) {
            case JOINED -> {
                out.printf("rejoined as the standby of %s at epoch %d%s%n", report.get().primary(), report.get().epoch(),
                        rebuild ? " (its shards held nothing it lacks: nothing rebuilt)" : "");
                out.flush();
                return ExitCodes.OK;
            }
            case REFUSED -> {
                out.printf("refused: the shards above hold transactions %s lacks; they were never acknowledged to a"
                        + " client. Rebuild this home as its standby with 'cleave rejoin --rebuild --via LOCATION', which"
                        + " keeps them aside in %s/EPOCH%n", report.get().primary(), home.root().resolve(KeptAside.DIR));
                out.flush();
                return ExitCodes.REFUSED;
            }
            case NEEDS_DAEMON -> throw new ExitCodes.NoDaemonException("no cleave daemon is running for home "
                    + home.root() + ": start it ('cleave up'; an old primary stays fenced), it checks its shards against"
                    + " the new primary's");
            default -> {
                // REBUILD or RESUME, below
            }
        }
        // The addresses this home keeps, read before the rebuild puts its config aside (when it is inside the home).
        Path config = ownConfig(home);
        HomeRebuild.Request request = new HomeRebuild.Request(primary, token, via,
                StandbyConfig.of(ConfigLoader.load(config)));
        HomeRebuild rebuilding = new HomeRebuild(home, location.settings(config), options.env, line -> {
            out.println(line);
            out.flush();
        });
        StandbySeed.Result seeded;
        if (decision == RebuildDecision.REBUILD) {
            out.println("stopping the daemon of " + home.root() + " to rebuild it");
            out.flush();
            DownCommand.stop(daemon.orElseThrow(), 300);
            seeded = rebuilding.rebuild(request, report.orElseThrow().epoch(), report.get().shards());
        } else {
            seeded = rebuilding.resume(request);
        }
        out.printf("rebuilt %s as the standby of %s from backup %s: %,d rows on %d shards in %.1f s, each shard"
                + " replicating%n", seeded.home(), primary, seeded.backup(), seeded.rows(), seeded.shards(),
                seeded.millis() / 1000.0);
        out.flush();
        return startAndAwait(home, seeded.config(), token, out);
    }

    /**
     * The config whose addresses the rebuilt home keeps: {@code --config}, else the home's own cleave.yaml, else (a
     * rebuild cut short) the one it put aside last.
     */
    private Path ownConfig(CleaveHome home) throws IOException {
        if (options.config != null) {
            return options.config();
        }
        Path inHome = home.root().resolve("cleave.yaml");
        if (Files.isRegularFile(inHome)) {
            return inHome;
        }
        Path kept = home.root().resolve(KeptAside.DIR);
        if (Files.isDirectory(kept)) {
            try (Stream<Path> dirs = Files.list(kept)) {
                Optional<Path> last = dirs.map(d -> d.resolve("home").resolve("cleave.yaml")).filter(Files::isRegularFile)
                        .max(Comparator.comparingLong(RejoinCommand::modified));
                if (last.isPresent()) {
                    return last.get();
                }
            }
        }
        throw new CommandLine.ParameterException(spec.commandLine(), "--rebuild keeps this home's addresses: give its"
                + " config with --config FILE");
    }

    private static long modified(Path p) {
        try {
            return Files.getLastModifiedTime(p).toMillis();
        } catch (IOException e) {
            return 0;
        }
    }

    /** {@code cleave up --detach} on the rebuilt home, then waits until every replica runs and is waited for. */
    private int startAndAwait(CleaveHome home, Path config, String token, PrintWriter out) throws Exception {
        CommandLine up = CleaveMain.commandLine();
        up.setOut(out);
        up.setErr(spec.commandLine().getErr());
        int started = up.execute("up", "--detach", "--home=" + home.root(), "--config=" + config);
        if (started != ExitCodes.OK) {
            return started;
        }
        AdminClient daemon = options.daemon();
        AdminClient newPrimary = AdminClient.remote(primary, token);
        long begun = System.nanoTime();
        long deadline = begun + waitSeconds * 1_000_000_000L;
        long nextLine = begun + 5_000_000_000L;
        while (true) {
            StandbyReport mine = daemon.standby();
            StandbyReport theirs = newPrimary.standby();
            if (AcknowledgedStandby.done(mine, theirs)) {
                break;
            }
            if (System.nanoTime() > nextLine) {
                out.printf("%.0f s: %s%n", (System.nanoTime() - begun) / 1e9, AcknowledgedStandby.awaited(mine, theirs));
                out.flush();
                nextLine += 5_000_000_000L;
            }
            if (System.nanoTime() > deadline) {
                out.printf("the rebuilt standby's replicas are not all running and waited for within %d s (here: %s;"
                        + " on the primary: semi-sync %s, %s); see 'cleave status --home %s'%n", waitSeconds,
                        mine.shards(), theirs.semiSync() ? "on" : "off", theirs.shards(), home.root());
                out.flush();
                return ExitCodes.NOT_READY;
            }
            Thread.sleep(200);
        }
        out.printf("this home is the standby of %s at epoch %d: every shard replicates it and acknowledges its commits"
                + " (semi-sync)%n", primary, daemon.standby().epoch());
        out.flush();
        return ExitCodes.OK;
    }
}
