package io.cleave.manager.backup.restore;

import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.daemon.DaemonOptions;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.instance.DatadirInitializer;
import io.cleave.manager.instance.InstancePlan;
import io.cleave.manager.instance.ServerBinary;
import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.home.KeptAside;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.manager.supervisor.InstanceStatus;
import io.cleave.router.shardmap.ShardMap;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A home being restored: made from nothing (a directory that does not exist or is empty: a restore
 * never writes into a home that has anything, but for the {@code errant/} directory where {@code cleave rejoin
 * --rebuild} kept the old home it rebuilds, which is never deleted), its config and shard map written first, then its
 * shards initialized and started by a daemon of its own with no proxy, on free ports, so that rows
 * can be loaded while the home the backup came from goes on running. Closing it stops the shards
 * cleanly; the home is then ready for {@code cleave up} with its own config.
 */
final class NewHome implements AutoCloseable {

    static final String CONFIG = "cleave.yaml";
    private static final String LOADING_CONFIG = "restore-loading.yaml";
    private final CleaveHome home;
    private final Path loadingConfig;
    private final Map<String, String> env;
    private Daemon daemon;
    private ShardLinks links;

    private NewHome(CleaveHome home, Path loadingConfig, Map<String, String> env, Daemon daemon) {
        this.home = home;
        this.loadingConfig = loadingConfig;
        this.env = env;
        this.daemon = daemon;
        this.links = new ShardLinks(daemon.shardEndpoints());
    }

    static NewHome create(Path root, String config, ShardMap map, Map<String, String> env) throws IOException {
        if (UnfinishedRestore.marked(root)) {
            discardUnfinished(new CleaveHome(root));
        }
        if (Files.exists(root)) {
            try (Stream<Path> entries = Files.list(root)) {
                if (entries.anyMatch(p -> !KeptAside.isKept(p))) {
                    throw new IllegalArgumentException(root + (Files.exists(root.resolve(CONFIG))
                            ? " already holds a home (a finished restore, or a home of its own)" : " is not empty")
                            + ": a restore builds a new home and never writes into one that holds anything; name a new"
                            + " directory, or delete " + root + " to restore into it again");
                }
            }
        }
        CleaveHome home = new CleaveHome(root);
        home.createDirectories();
        UnfinishedRestore.mark(home);
        Path configFile = home.root().resolve(CONFIG);
        Files.writeString(configFile, config);
        new ShardMapStore(home.shardMapFile()).save(map, ConfigLoader.parse(configFile, config).sharding().topology());
        Path loading = home.state().resolve(LOADING_CONFIG);
        Files.writeString(loading, RestoredConfig.forLoading(config, io.cleave.manager.home.LoopbackPorts.range(map.shardCount())));
        return new NewHome(home, loading, env, started(home, loading, env));
    }

    /** A daemon of the home's own on {@code loading}, its shards all running. */
    private static Daemon started(CleaveHome home, Path loading, Map<String, String> env) {
        Daemon daemon = new Daemon(DaemonOptions.standard(home, loading, env));
        try {
            daemon.start();
            for (InstanceStatus s : daemon.status()) {
                if (s.state() != InstanceState.RUNNING) {
                    throw new IllegalStateException("shard " + s.index() + " of the new home did not start (" + s.state()
                            + "): see " + home.logs().resolve("shard-" + s.index() + ".err"));
                }
            }
        } catch (RuntimeException e) {
            daemon.close();
            throw e;
        }
        return daemon;
    }

    /**
     * Stops the shards, puts each shard's prepared physical copy ({@code copies}, by shard) in place of
     * its datadir (the redo log into the shard's log directory when it has its own), and starts them
     * again. The initializer's marker stays (the datadir is Cleave's); the shard account's marker goes
     * with the rest, so the account is made again with this home's secret over the copied grant tables.
     */
    void replaceDatadirs(Map<Integer, Path> copies) throws IOException {
        List<InstancePlan> plans = daemon.plan().instances();
        daemon.close();
        for (InstancePlan plan : plans) {
            Path copy = copies.get(plan.index());
            Path datadir = plan.datadir();
            byte[] marker = Files.readAllBytes(datadir.resolve(DatadirInitializer.MARKER));
            clear(datadir, p -> true);
            if (plan.separateLogDir()) {
                clear(plan.logDir(), p -> p.getFileName().toString().startsWith("ib_logfile"));
            }
            try (Stream<Path> entries = Files.list(copy)) {
                for (Path p : entries.toList()) {
                    boolean redo = p.getFileName().toString().startsWith("ib_logfile");
                    Files.move(p, (redo && plan.separateLogDir() ? plan.logDir() : datadir).resolve(p.getFileName()));
                }
            }
            Files.write(datadir.resolve(DatadirInitializer.MARKER), marker);
        }
        daemon = started(home, loadingConfig, env);
        links = new ShardLinks(daemon.shardEndpoints());
    }

    private static void clear(Path dir, java.util.function.Predicate<Path> which) throws IOException {
        try (Stream<Path> entries = Files.list(dir)) {
            for (Path p : entries.filter(which).toList()) {
                try (Stream<Path> tree = Files.walk(p)) {
                    for (Path q : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.delete(q);
                    }
                }
            }
        }
    }

    /** The shards' server. */
    ServerBinary server() {
        return daemon.plan().binary();
    }

    CleaveHome home() {
        return home;
    }

    ShardLinks links() {
        return links;
    }

    int shards() {
        return daemon.shardEndpoints().size();
    }

    Path configFile() {
        return home.root().resolve(CONFIG);
    }

    /** Where the shards' server binary is (for the tools beside it). */
    Path serverBinary() {
        return daemon.plan().binary().mysqld();
    }

    /** Marks the home complete: {@code cleave up} may run it, and another restore leaves it alone. */
    void finished() throws IOException {
        UnfinishedRestore.clear(home);
    }

    /**
     * A home an interrupted restore left (its daemon killed: shards may still run): its servers are
     * stopped and it is deleted, so the restore starts over (but for what a rebuild kept aside in it).
     */
    static void discardUnfinished(CleaveHome home) throws IOException {
        try (Stream<Path> cnfs = Files.exists(home.etc()) ? Files.list(home.etc()) : Stream.empty()) {
            for (Path cnf : cnfs.toList()) {
                io.cleave.manager.supervisor.ProcessInspector.findServerFor(cnf).ifPresent(p -> {
                    p.destroyForcibly();
                    p.onExit().orTimeout(30, java.util.concurrent.TimeUnit.SECONDS).join();
                });
            }
        }
        try (Stream<Path> entries = Files.list(home.root())) {
            for (Path entry : entries.filter(p -> !KeptAside.isKept(p)).toList()) {
                try (Stream<Path> paths = Files.walk(entry)) {
                    for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
    }

    @Override
    public void close() {
        daemon.close();
        try {
            Files.deleteIfExists(loadingConfig);
        } catch (IOException ignored) {
            // a leftover file in state/ that nothing reads
        }
    }
}
