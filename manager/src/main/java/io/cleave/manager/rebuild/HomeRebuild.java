package io.cleave.manager.rebuild;

import io.cleave.manager.backup.restore.UnfinishedRestore;
import io.cleave.manager.config.BackupConfig;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.DaemonInfo;
import io.cleave.manager.home.KeptAside;
import io.cleave.manager.standby.StandbyConfig;
import io.cleave.manager.standby.StandbySeed;
import io.cleave.manager.supervisor.ProcessInspector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code cleave rejoin --rebuild}, once the old primary's daemon refused the rejoin for transactions the new primary
 * lacks and was stopped: the home is put aside under {@code errant/<epoch>} ({@link ErrantKeeping}: nothing deleted),
 * then seeded in place as the new primary's standby, as {@code cleave standby} seeds a new home (a backup of the new
 * primary at one cut, restored with this home's own addresses and server ids, each shard replicating from the cut).
 * The home is left stopped, each shard's replication set up and caught up; its daemon turns the primary's semi-sync on.
 */
public final class HomeRebuild {

    private static final Logger log = LoggerFactory.getLogger(HomeRebuild.class);

    /**
     * @param primary   the new primary's admin URL
     * @param token     its admin token
     * @param via       where its seeding backup goes (a directory or s3:// both hosts reach)
     * @param addresses this home's own addresses and server ids, which the rebuilt home keeps
     */
    public record Request(String primary, String token, String via, StandbyConfig addresses) {
    }

    private final CleaveHome home;
    private final BackupConfig backupSettings;
    private final Map<String, String> env;
    private final Consumer<String> say;

    public HomeRebuild(CleaveHome home, BackupConfig backupSettings, Map<String, String> env, Consumer<String> say) {
        this.home = home;
        this.backupSettings = backupSettings;
        this.env = env;
        this.say = say;
    }

    /**
     * Puts the home aside with the record of {@code errant} (per shard, the GTIDs {@code request.primary()} at
     * {@code epoch} lacks) and seeds it.
     */
    public StandbySeed.Result rebuild(Request request, long epoch, List<String> errant) throws Exception {
        refuseWhileRunning();
        ErrantKeeping.Kept kept = ErrantKeeping.keep(home, epoch, request.primary(), errant, Instant.now());
        say.accept("kept this home's transactions the new primary lacks, never acknowledged to a client, in " + kept.dir()
                + " (" + ErrantKeeping.RECORD + " lists them):");
        errant.forEach(line -> say.accept("  " + line));
        kept.shards().forEach(line -> say.accept("  " + line));
        log.warn("rebuilding {} as the standby of {}: its errant transactions {} are kept in {}", home.root(),
                request.primary(), errant, kept.dir());
        return seed(request);
    }

    /** Seeds again a home whose rebuild put it aside and was cut short (the seed failed, or was killed). */
    public StandbySeed.Result resume(Request request) throws Exception {
        refuseWhileRunning();
        say.accept("this home's rebuild was cut short (what it put aside stays in " + home.root().resolve(KeptAside.DIR) + "): seeding it again");
        return seed(request);
    }

    /**
     * Whether the home is a rebuild that did not finish: its old home put aside, and its seed not begun (the home holds
     * nothing else) or unfinished.
     */
    public static boolean cutShort(CleaveHome home) throws IOException {
        if (!ErrantKeeping.anyKept(home)) {
            return false;
        }
        try (Stream<Path> entries = Files.list(home.root())) {
            return UnfinishedRestore.refusal(home).isPresent() || entries.allMatch(KeptAside::isKept);
        }
    }

    private StandbySeed.Result seed(Request request) throws Exception {
        return new StandbySeed(backupSettings, env, say).run(new StandbySeed.Request(request.primary(), request.token(),
                home.root(), request.via(), request.addresses()));
    }

    /** Nothing of the home may run while its datadirs are moved and replaced: not its daemon, not a shard. */
    private void refuseWhileRunning() throws IOException {
        Optional<DaemonInfo> daemon = DaemonInfo.read(home).filter(DaemonInfo::processAlive);
        if (daemon.isPresent()) {
            throw new IllegalStateException("the daemon of " + home.root() + " (pid " + daemon.get().pid() + ") runs: it"
                    + " must be stopped before its datadirs are put aside");
        }
        if (!Files.isDirectory(home.etc())) {
            return;
        }
        try (Stream<Path> cnfs = Files.list(home.etc())) {
            for (Path cnf : cnfs.filter(p -> p.getFileName().toString().endsWith(".cnf")).toList()) {
                Optional<ProcessHandle> server = ProcessInspector.findServerFor(cnf);
                if (server.isPresent()) {
                    throw new IllegalStateException("a server of " + home.root() + " runs (pid " + server.get().pid()
                            + ", " + cnf.getFileName() + "): stop it ('cleave down --home " + home.root() + "') first");
                }
            }
        }
    }
}
