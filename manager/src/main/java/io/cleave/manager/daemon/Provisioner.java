package io.cleave.manager.daemon;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.Secrets;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.instance.BinaryResolver;
import io.cleave.manager.instance.CnfRenderer;
import io.cleave.manager.instance.DatadirInitializer;
import io.cleave.manager.instance.EmbeddedServer;
import io.cleave.manager.instance.InstancePlan;
import io.cleave.manager.instance.InstancePlanner;
import io.cleave.manager.instance.ServerBinary;
import io.cleave.manager.instance.ShardAccount;
import io.cleave.manager.instance.StorageProbe;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.shardmap.ShardMapHolder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Makes a home ready to run, idempotently: what is already right is left alone (an unchanged
 * my.cnf is not rewritten, an initialized datadir is not touched), what is missing is made.
 */
public final class Provisioner {

    private static final Logger log = LoggerFactory.getLogger(Provisioner.class);

    private final CleaveHome home;
    private final CleaveConfig config;
    private final Path cacheDir;
    private final String pathVariable;
    private final StorageProbe storage;
    private final boolean runAsRoot = "root".equals(System.getProperty("user.name"));

    public Provisioner(CleaveHome home, CleaveConfig config, Path cacheDir, String pathVariable, StorageProbe storage) {
        this.home = home;
        this.config = config;
        this.cacheDir = cacheDir;
        this.pathVariable = pathVariable;
        this.storage = storage;
    }

    public Provisioned prepare() {
        long started = System.nanoTime();
        home.createDirectories();
        ShardMap map = new ShardMapStore(home.shardMapFile()).loadOrCreate(config.sharding(), config.source());
        String adminToken = Secrets.readOrCreate(home.adminTokenFile());
        ShardAccount account = new ShardAccount(Secrets.readOrCreate(home.shardSecretFile()));

        ServerBinary binary = new BinaryResolver(pathVariable, () -> EmbeddedServer.standard(cacheDir))
                .resolve(config.server().binary());
        log.info("server: {}", binary.describe());
        if (!config.cpuSets().isEmpty() && new BinaryResolverPath(pathVariable).find("taskset").isEmpty()) {
            throw new IllegalStateException("cpu_sets in " + config.source() + " need taskset (package util-linux) on PATH");
        }

        List<InstancePlan> plans = new InstancePlanner(storage).plan(config, home);
        CnfRenderer renderer = CnfRenderer.packaged();
        for (InstancePlan plan : plans) {
            if (!plan.directIo()) {
                log.warn("{}: using innodb_flush_method=fsync: {}", plan.name(), plan.flushMethodReason());
            }
            writeIfChanged(plan.cnf(), renderer.render(plan, binary, config.server().options(), runAsRoot));
        }

        DatadirInitializer initializer = new DatadirInitializer(cacheDir, runAsRoot);
        initializer.ensureTemplate(binary);
        List<CompletableFuture<Void>> copies = new ArrayList<>();
        for (InstancePlan plan : plans) {
            copies.add(CompletableFuture.runAsync(() -> {
                DatadirInitializer.Outcome outcome = initializer.initialize(plan, binary);
                if (outcome == DatadirInitializer.Outcome.CREATED) {
                    log.info("{}: initialized datadir {}", plan.name(), plan.datadir());
                }
            }));
        }
        try {
            CompletableFuture.allOf(copies.toArray(CompletableFuture[]::new)).join();
        } catch (CompletionException e) {
            throw e.getCause() instanceof RuntimeException r ? r : e;
        }

        Path initFile = home.accountInitFile();
        String sql = account.initSql(binary.flavour());
        try {
            if (!Files.exists(initFile) || !Files.readString(initFile).equals(sql)) {
                Secrets.replacePrivate(initFile, sql);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + initFile + ": " + e.getMessage(), e);
        }
        log.info("home {} ready for {} shards in {} ms", home, plans.size(), (System.nanoTime() - started) / 1_000_000);
        return new Provisioned(binary, plans, account, adminToken, new ShardMapHolder(map), initFile);
    }

    private static void writeIfChanged(Path file, String content) {
        try {
            if (Files.exists(file) && Files.readString(file, StandardCharsets.UTF_8).equals(content)) {
                return;
            }
            boolean existed = Files.exists(file);
            Files.createDirectories(file.getParent());
            Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
            Files.writeString(tmp, content, StandardCharsets.UTF_8);
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            log.info("{} {}", existed ? "updated" : "wrote", file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** PATH lookup of a helper program. */
    private record BinaryResolverPath(String path) {
        java.util.Optional<Path> find(String name) {
            for (String dir : path.split(java.io.File.pathSeparator)) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, name);
                if (Files.isExecutable(candidate)) {
                    return java.util.Optional.of(candidate);
                }
            }
            return java.util.Optional.empty();
        }
    }
}
