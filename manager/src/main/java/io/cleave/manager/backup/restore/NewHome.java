package io.cleave.manager.backup.restore;

import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.daemon.DaemonOptions;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.manager.supervisor.InstanceStatus;
import io.cleave.router.shardmap.ShardMap;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.stream.Stream;

/**
 * A home being restored: made from nothing (a directory that does not exist or is empty: a restore
 * never writes into a home that has anything), its config and shard map written first, then its
 * shards initialized and started by a daemon of its own with no proxy, on free ports, so that rows
 * can be loaded while the home the backup came from goes on running. Closing it stops the shards
 * cleanly; the home is then ready for {@code cleave up} with its own config.
 */
final class NewHome implements AutoCloseable {

    static final String CONFIG = "cleave.yaml";
    private static final String LOADING_CONFIG = "restore-loading.yaml";
    /** In state/ while a restore builds the home: one that holds it was interrupted and is started over. */
    static final String UNFINISHED = "restore-unfinished";

    private final CleaveHome home;
    private final Path loadingConfig;
    private final Daemon daemon;
    private final ShardLinks links;

    private NewHome(CleaveHome home, Path loadingConfig, Daemon daemon) {
        this.home = home;
        this.loadingConfig = loadingConfig;
        this.daemon = daemon;
        this.links = new ShardLinks(daemon.shardEndpoints());
    }

    static NewHome create(Path root, String config, ShardMap map, Map<String, String> env) throws IOException {
        if (Files.exists(root.resolve("state").resolve(UNFINISHED))) {
            discardUnfinished(new CleaveHome(root));
        }
        if (Files.exists(root)) {
            try (Stream<Path> entries = Files.list(root)) {
                if (entries.findAny().isPresent()) {
                    throw new IllegalArgumentException(root + " is not empty: a restore builds a new home and never writes"
                            + " into one that holds anything; name a new directory");
                }
            }
        }
        CleaveHome home = new CleaveHome(root);
        home.createDirectories();
        Files.writeString(home.state().resolve(UNFINISHED), "a restore is building this home\n");
        Path configFile = home.root().resolve(CONFIG);
        Files.writeString(configFile, config);
        new ShardMapStore(home.shardMapFile()).save(map, ConfigLoader.parse(configFile, config).sharding().topology());
        Path loading = home.state().resolve(LOADING_CONFIG);
        Files.writeString(loading, RestoredConfig.forLoading(config, freePortRange(map.shardCount())));
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
        return new NewHome(home, loading, daemon);
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
        Files.deleteIfExists(home.state().resolve(UNFINISHED));
    }

    /**
     * A home an interrupted restore left (its daemon killed: shards may still run): its servers are
     * stopped and it is deleted, so the restore starts over.
     */
    private static void discardUnfinished(CleaveHome home) throws IOException {
        try (Stream<Path> cnfs = Files.exists(home.etc()) ? Files.list(home.etc()) : Stream.empty()) {
            for (Path cnf : cnfs.toList()) {
                io.cleave.manager.supervisor.ProcessInspector.findServerFor(cnf).ifPresent(p -> {
                    p.destroyForcibly();
                    p.onExit().orTimeout(30, java.util.concurrent.TimeUnit.SECONDS).join();
                });
            }
        }
        try (Stream<Path> paths = Files.walk(home.root())) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
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

    /** {@code n} consecutive loopback ports nobody listens on. */
    private static int freePortRange(int n) {
        for (int attempt = 0; attempt < 200; attempt++) {
            int base = 20_000 + ThreadLocalRandom.current().nextInt(30_000);
            boolean free = true;
            for (int p = base; p < base + n && free; p++) {
                try (ServerSocket s = new ServerSocket()) {
                    s.setReuseAddress(true);
                    s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), p));
                } catch (IOException e) {
                    free = false;
                }
            }
            if (free) {
                return base;
            }
        }
        throw new IllegalStateException("found no " + n + " consecutive free ports for the restored shards");
    }
}
