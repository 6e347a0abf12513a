package io.cleave.manager.daemon;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.host.OsUser;
import io.cleave.manager.home.Secrets;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.instance.CnfRenderer;
import io.cleave.manager.instance.DatadirInitializer;
import io.cleave.manager.instance.HostPlan;
import io.cleave.manager.instance.InstancePlan;
import io.cleave.manager.instance.PlanText;
import io.cleave.manager.instance.ServerBinary;
import io.cleave.manager.instance.ShardAccount;
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
    private final HomePlanner planner;

    public Provisioner(CleaveHome home, CleaveConfig config, Path cacheDir, String pathVariable) {
        this.home = home;
        this.config = config;
        this.cacheDir = cacheDir;
        this.planner = new HomePlanner(home, config, cacheDir, pathVariable);
    }

    public Provisioned prepare() {
        long started = System.nanoTime();
        home.createDirectories();
        ShardMap map = new ShardMapStore(home.shardMapFile()).loadOrCreate(config.sharding(), config.source());
        String adminToken = Secrets.readOrCreate(home.adminTokenFile());
        ShardAccount account = new ShardAccount(Secrets.readOrCreate(home.shardSecretFile()));

        HostPlan hostPlan = planner.plan();
        ServerBinary binary = hostPlan.binary();
        log.info("server: {}", binary.describe());
        log.info("plan:\n{}", PlanText.render(hostPlan));
        hostPlan.notes().forEach(note -> log.warn("plan: {}", note));
        List<InstancePlan> plans = hostPlan.instances();
        CnfRenderer renderer = CnfRenderer.packaged();
        for (InstancePlan plan : plans) {
            writeIfChanged(plan.cnf(), renderer.render(plan, binary));
            createTmpdir(plan);
        }

        DatadirInitializer initializer = new DatadirInitializer(cacheDir, planner.runAsRoot());
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
            Files.createDirectories(home.files());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + initFile + ": " + e.getMessage(), e);
        }
        if (io.cleave.manager.standby.tls.ShardTls.of(home).install(replicationTls(binary), config.listen().shardNames())) {
            log.info("made the shards' TLS certificate for {} (server.replication_tls: required)", config.listen().shardNames());
        }
        OsUser serverUser = serverUser();
        if (serverUser != null) {
            serverUser.own(initializer.templateDir(binary));
            for (InstancePlan plan : plans) {
                handOver(serverUser, plan);
            }
            serverUser.own(home.run());
            serverUser.own(home.files());
            log.info("shards run as the OS user {}", serverUser.name());
        }
        log.info("home {} ready for {} shards in {} ms", home, plans.size(), (System.nanoTime() - started) / 1_000_000);
        return new Provisioned(binary, plans, account, adminToken, new ShardMapHolder(map), initFile, hostPlan);
    }

    /**
     * Makes one more shard ready to start (a scale adds it): its my.cnf written and its datadir
     * initialized from the template, as for the others.
     */
    public void prepareInstance(InstancePlan plan, ServerBinary binary) {
        writeCnf(plan, binary);
        createTmpdir(plan);
        DatadirInitializer.Outcome outcome = new DatadirInitializer(cacheDir, planner.runAsRoot()).initialize(plan, binary);
        if (outcome == DatadirInitializer.Outcome.CREATED) {
            log.info("{}: initialized datadir {}", plan.name(), plan.datadir());
        }
        OsUser serverUser = serverUser();
        if (serverUser != null) {
            handOver(serverUser, plan);
        }
    }

    /** Replication between the pair's shards over TLS: MariaDB's (a standby needs MariaDB shards). */
    private io.cleave.manager.config.ReplicationTls replicationTls(ServerBinary binary) {
        return binary.flavour() == io.cleave.manager.instance.Flavour.MARIADB ? config.listen().replicationTls()
                : io.cleave.manager.config.ReplicationTls.OFF;
    }

    /**
     * The unprivileged OS user the shards run as (the daemon is root and server.os_user is not
     * root), made when missing; null when they run as the daemon's own user.
     */
    private OsUser serverUser() {
        String name = planner.serverUser();
        return name == null || name.equals("root") ? null : OsUser.ensure(name);
    }

    private static void createTmpdir(InstancePlan plan) {
        try {
            Files.createDirectories(plan.tmpdir());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + plan.name() + "'s tmpdir " + plan.tmpdir() + ": "
                    + e.getMessage(), e);
        }
    }

    /** What one shard's server writes, given to its OS user: datadir, tmpdir, log directory, error log. */
    private void handOver(OsUser user, InstancePlan plan) {
        for (Path p : List.of(plan.datadir(), plan.logDir(), plan.errorLog(), home.run(), home.files())) {
            user.mustReach(p, home.root());
        }
        user.own(plan.datadir());
        user.own(plan.tmpdir());
        if (plan.separateLogDir()) {
            user.own(plan.logDir());
        }
        try {
            if (!Files.exists(plan.errorLog())) {
                Files.createDirectories(plan.errorLog().getParent());
                Files.createFile(plan.errorLog());
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + plan.errorLog() + ": " + e.getMessage(), e);
        }
        user.own(plan.errorLog());
    }

    /** Writes a shard's my.cnf from its plan unless it says that already (read at the server's next start). */
    public static void writeCnf(InstancePlan plan, ServerBinary binary) {
        writeIfChanged(plan.cnf(), CnfRenderer.packaged().render(plan, binary));
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
}
