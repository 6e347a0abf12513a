package io.cleave.manager.backup;

import io.cleave.manager.admin.AdminError;
import io.cleave.manager.backup.physical.BackupTool;
import io.cleave.manager.backup.store.BackupStore;
import io.cleave.manager.backup.store.BackupStores;
import io.cleave.manager.backup.throttle.ByteRate;
import io.cleave.manager.backup.throttle.ThrottledStore;
import io.cleave.manager.config.BackupConfig;
import io.cleave.manager.config.BackupEngine;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Backups of the running home: one at a time, each on its own thread, followed through
 * {@link #status}. A backup that fails removes what it stored (when the location still lets it);
 * one whose daemon dies leaves chunk files but no manifest, so nothing lists it as complete.
 */
public final class BackupService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(BackupService.class);
    private static final int KEPT = 20;

    private final BackupSources sources;
    private final BackupConfig config;
    private final java.nio.file.Path scratch;
    private final ExecutorService runner = Executors.newSingleThreadExecutor(LogicalBackup.named("backup"));
    private final Map<String, BackupProgress> recent = new LinkedHashMap<>();
    private final BackupMetrics metrics;
    private volatile BackupProgress running;
    private volatile BackupHooks hooks = BackupHooks.NONE;

    /**
     * {@code scratch}: a directory of the home's own where physical copies are staged (with the shard
     * account's options file); what a killed daemon left there is removed now, as no backup runs yet.
     */
    public BackupService(BackupSources sources, BackupConfig config, io.micrometer.core.instrument.MeterRegistry registry,
                         java.nio.file.Path scratch) {
        this.sources = sources;
        this.config = config;
        this.scratch = scratch;
        try {
            PhysicalBackup.deleteTree(scratch);
        } catch (IOException e) {
            log.warn("could not remove what an earlier backup left in {}: {}", scratch, e.getMessage());
        }
        this.metrics = new BackupMetrics(registry, () -> {
            BackupProgress p = running;
            return p == null ? null : p.status();
        });
    }

    /** The id of the backup under way, or null when none is. */
    public String underWay() {
        BackupProgress p = running;
        return p != null && !p.phase().terminal() ? p.id : null;
    }

    public BackupConfig config() {
        return config;
    }

    /** Replaces the hooks of the backups started from now on (in-process tests hold a read in the snapshots). */
    public void testHooks(BackupHooks hooks) {
        this.hooks = hooks;
    }

    /** Starts a backup to {@code location} (null: the configured one) with the configured engine. */
    public BackupStatus start(String location) {
        return start(location, null);
    }

    /** {@link #start(String, BackupEngine, Integer)} at the configured rate. */
    public BackupStatus start(String location, BackupEngine engine) {
        return start(location, engine, null);
    }

    /**
     * Starts a backup to {@code location} (null: the configured one) with {@code engine} (null: the
     * configured one), writing at most {@code maxRateMbS} MB/s (null: backup.max_rate_mb_s; 0: no
     * bound); a physical backup that cannot run here is refused at once, saying why.
     */
    public synchronized BackupStatus start(String location, BackupEngine engine, Integer maxRateMbS) {
        int rate = maxRateMbS != null ? maxRateMbS : config.maxRateMbS();
        if (rate < 0) {
            throw new AdminError(AdminError.BAD_REQUEST, "a rate of " + rate + " MB/s: give 0 (no bound) or more");
        }
        BackupEngine asked = engine != null ? engine : config.engine();
        BackupTool.Lookup tool = asked == BackupEngine.LOGICAL ? null
                : BackupTool.forServer(sources.server(), System.getenv("PATH"));
        if (asked == BackupEngine.PHYSICAL && !tool.found()) {
            throw new AdminError(AdminError.BAD_REQUEST, "the physical engine cannot run here: " + tool.why());
        }
        BackupTool physical = tool != null && tool.found() ? tool.tool() : null;
        String where = location != null && !location.isBlank() ? location : config.location().orElseThrow(() ->
                new AdminError(AdminError.BAD_REQUEST, "no backup location: give --to DIR or --to s3://BUCKET/PREFIX, or set"
                        + " backup.location in the config"));
        BackupProgress current = running;
        if (current != null && !current.phase().terminal()) {
            throw new AdminError(AdminError.CONFLICT, "backup " + current.id + " is under way: wait for it"
                    + " ('cleave backup --status " + current.id + "')");
        }
        BackupStore opened;
        try {
            opened = BackupStores.of(where, config);
        } catch (IllegalArgumentException e) {
            throw new AdminError(AdminError.BAD_REQUEST, e.getMessage());
        }
        BackupStore store = rate > 0 ? new ThrottledStore(opened, ByteRate.ofMegabytesPerSecond(rate)) : opened;
        BackupProgress progress = new BackupProgress(BackupKeys.newId(Instant.now()), store.describe());
        running = progress;
        synchronized (recent) {
            recent.put(progress.id, progress);
            while (recent.size() > KEPT) {
                recent.remove(recent.keySet().iterator().next());
            }
        }
        progress.engine(physical != null ? BackupManifest.PHYSICAL : BackupManifest.LOGICAL);
        runner.submit(() -> run(progress, store, physical));
        return progress.status();
    }

    /** Runs one backup: physical with {@code tool}, logical when it is null. */
    private void run(BackupProgress progress, BackupStore store, BackupTool tool) {
        try (store) {
            if (tool != null) {
                new PhysicalBackup(sources, store, progress, tool, config.maxSnapshot(), hooks, scratch).run();
            } else {
                new LogicalBackup(sources, store, progress, ChunkLimits.fromSystemProperties(), config.maxSnapshot(),
                        hooks).run();
            }
        } catch (Exception e) {
            String why = e.getMessage() == null ? e.toString() : e.getMessage();
            for (Throwable t = e; t != null; t = t.getCause()) {
                if (t instanceof java.nio.file.NoSuchFileException n) { // also when a reader thread wrapped it
                    why = "the backup location " + n.getFile() + " is gone" + (n.getReason() == null ? ""
                            : " (" + n.getReason() + ")");
                    break;
                }
            }
            log.error("backup {} to {} failed: {}", progress.id, progress.location, why);
            // Removed before the backup shows as failed, so that a failed backup has settled.
            try {
                store.deleteAll(BackupKeys.backup(progress.id));
            } catch (IOException | RuntimeException cleanup) {
                log.warn("backup {}: could not remove what it stored in {}: {}", progress.id, progress.location,
                        cleanup.getMessage());
            }
            progress.fail(why);
        } finally {
            metrics.ended(progress.status());
        }
    }

    /** A backup this daemon ran (the last {@value #KEPT}); 404 for another id. */
    public BackupStatus status(String id) {
        synchronized (recent) {
            BackupProgress p = recent.get(id);
            if (p == null) {
                throw new AdminError(AdminError.NOT_FOUND, "this daemon ran no backup " + id + ": 'cleave backups' lists"
                        + " the backups of a location");
            }
            return p.status();
        }
    }

    /** What a location (null: the configured one) holds. */
    public BackupsReport list(String location) {
        String where = location != null && !location.isBlank() ? location : config.location().orElseThrow(() ->
                new AdminError(AdminError.BAD_REQUEST, "no backup location: give --from LOCATION, or set backup.location"));
        try (BackupStore store = BackupStores.of(where, config)) {
            return new BackupCatalog(store).report();
        } catch (IOException e) {
            throw new AdminError(AdminError.BAD_GATEWAY, "cannot read " + where + ": " + e.getMessage());
        }
    }

    @Override
    public void close() {
        runner.shutdownNow();
    }
}
