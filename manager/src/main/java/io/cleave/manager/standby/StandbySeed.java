package io.cleave.manager.standby;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.backup.BackupManifest;
import io.cleave.manager.backup.BackupPhase;
import io.cleave.manager.backup.BackupStatus;
import io.cleave.manager.backup.restore.Restore;
import io.cleave.manager.backup.restore.RestoreRequest;
import io.cleave.manager.config.BackupConfig;
import io.cleave.manager.config.ReplicationTls;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.Secrets;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Consumer;

/**
 * {@code cleave standby}: builds a standby home of a running primary. The primary prepares its shards
 * (replication account, strict GTIDs) and takes a backup at one cut; the backup is restored into the
 * new home with the standby's config (the restore of {@code cleave restore}, not a copy of it), and
 * each restored shard replicates its primary shard from the cut's GTID position. The home is left
 * stopped with its standby state; its daemon ({@code cleave up}) watches the replicas and turns the
 * primary's semi-sync on once every one runs.
 */
public final class StandbySeed {

    /**
     * @param primary  the primary's admin URL
     * @param token    the primary's admin token
     * @param location where the seeding backup goes: a directory (or s3://) both hosts reach
     */
    public record Request(String primary, String token, Path home, String location, StandbyConfig config) {
    }

    /** @param attempts seeds taken: more than 1 when a cut split a cross-shard transaction */
    public record Result(Path home, Path config, String backup, int shards, long rows, long millis, long epoch,
                         int attempts) {
    }

    /** Seeds tried before giving up when each cut splits a cross-shard transaction (see {@link SeedCheck}). */
    static final int MAX_ATTEMPTS = 5;
    /** How long a seeded replica may take to apply what its primary wrote while the seed was restored. */
    private static final long CATCH_UP_MILLIS = 300_000;

    /** How far a standby's server ids are from its primary's when none is given. */
    static final int SERVER_ID_STEP = 1000;

    private final BackupConfig backupSettings;
    private final Map<String, String> env;
    private final Consumer<String> say;

    public StandbySeed(BackupConfig backupSettings, Map<String, String> env, Consumer<String> say) {
        this.backupSettings = backupSettings;
        this.env = env;
        this.say = say;
    }

    public Result run(Request request) throws Exception {
        long started = System.nanoTime();
        AdminClient primary = AdminClient.remote(request.primary(), request.token());
        Attachment attachment = primary.attachStandby();
        StandbyConfig ids = request.config().serverIdBase() > 0 ? request.config()
                : new StandbyConfig(request.config().basePort(), request.config().adminPort(), request.config().proxyListen(),
                attachment.serverIdBase() + SERVER_ID_STEP, request.config().listen());
        StandbyConfig config = ids.withReplicationTls(replicationTls(attachment, ids.listen().replicationTls()));
        if (attachment.serverIdBase() == config.serverIdBase()) {
            throw new IllegalArgumentException("the standby's server_id_base " + config.serverIdBase()
                    + " is the primary's: give it another");
        }
        say.accept("attached to the primary at " + request.primary() + ": " + attachment.shards().size()
                + " shards, epoch " + attachment.epoch());
        String backup = null;
        Restore.Result restored = null;
        java.util.concurrent.atomic.AtomicReference<String> backedUpMap = new java.util.concurrent.atomic.AtomicReference<>();
        int attempt = 0;
        while (restored == null) {
            attempt++;
            backup = backUp(primary, request.location());
            try {
                restored = new Restore(backupSettings, env, say)
                        .adjustingConfig(config::apply)
                        .joiningThePair()
                        .finishingWith((shards, manifest) -> {
                            backedUpMap.set(manifest.shardMap());
                            io.cleave.manager.standby.layout.SeedVersion.refuseMoveAtCut(manifest.shardMap());
                            replicate(primary, shards, manifest, attachment, new CleaveHome(request.home()));
                        })
                        .run(new RestoreRequest(request.location(), backup, OptionalLong.empty(), OptionalLong.empty(),
                                request.home(), OptionalInt.empty()));
            } catch (SeedCheck.TornAtCut e) {
                // The unfinished home is discarded by the next restore into it.
                if (attempt == MAX_ATTEMPTS) {
                    throw new IllegalStateException("every one of " + MAX_ATTEMPTS + " cuts split a cross-shard"
                            + " transaction's prepare from its commit (" + e.getMessage() + "): run 'cleave standby'"
                            + " again at a calmer moment");
                }
                say.accept("backup " + backup + "'s cut split a cross-shard transaction (" + e.getMessage()
                        + "): seeding again from another cut");
            }
        }
        if (!restored.verified()) {
            throw new IllegalStateException("the standby's restore differs from the backup: " + restored.problems());
        }
        CleaveHome home = new CleaveHome(restored.home());
        io.cleave.manager.standby.layout.SeedVersion.keepPrimarys(home, restored.config(), backedUpMap.get());
        Secrets.writePrivate(home.state().resolve(ReplicationMonitor.PRIMARY_TOKEN), request.token() + "\n");
        StandbyState.file(home).save(new StandbyState(HostRole.STANDBY, attachment.epoch(), request.primary(), false));
        return new Result(restored.home(), restored.config(), backup, restored.shards(), restored.rows(),
                (System.nanoTime() - started) / 1_000_000, attachment.epoch(), attempt);
    }

    /**
     * A logical backup of the primary at one cut, waited for: the seed replicates from the rows as read
     * at the cut (a physical restore settles the branches prepared there, which the seed replicates instead).
     */
    private String backUp(AdminClient primary, String location) throws Exception {
        BackupStatus status = primary.startBackup(location, io.cleave.manager.config.BackupEngine.LOGICAL);
        say.accept("the primary backs up at one cut into " + location + " (backup " + status.id() + ")");
        while (!status.phase().terminal()) {
            Thread.sleep(250);
            status = primary.backup(status.id());
        }
        if (status.phase() != BackupPhase.DONE) {
            throw new IllegalStateException("the primary's backup " + status.id() + " failed: " + status.message());
        }
        return status.id();
    }

    /**
     * The pair's replication TLS as this standby runs it: required when the primary's shards offer TLS (the pair's
     * replication is encrypted both ways, a switchover's old primary verifying this home's shards), else as this
     * standby's own setting says; refused when that is required and the primary's shards offer none.
     */
    static ReplicationTls replicationTls(Attachment attachment, ReplicationTls mine) {
        if (attachment.shardCertificate() != null) {
            return ReplicationTls.REQUIRED;
        }
        if (mine == ReplicationTls.REQUIRED) {
            throw new IllegalStateException("the primary's shards offer no TLS (its server.replication_tls is off), and"
                    + " this standby's server.replication_tls is required (the default when its shards listen beyond"
                    + " loopback): set server.replication_tls: required on the primary and restart its daemon (its shards"
                    + " then offer a certificate), or set it to off for this standby");
        }
        return ReplicationTls.OFF;
    }

    private void replicate(AdminClient primary, io.cleave.manager.move.ShardLinks shards, BackupManifest manifest,
                           Attachment attachment, CleaveHome home) throws Exception {
        io.cleave.manager.standby.tls.ShardTls tls = io.cleave.manager.standby.tls.ShardTls.of(home);
        io.cleave.manager.standby.tls.ReplicaLink link = tls.toPrimary(attachment.shardCertificate());
        List<PendingPrepare> prepared = primary.preparedAt(manifest.shards().stream()
                .map(p -> new CutPosition(p.shard(), p.file(), p.position())).toList());
        for (Attachment.ShardAddress address : attachment.shards()) {
            BackupManifest.ShardPosition cut = manifest.shards().stream().filter(p -> p.shard() == address.shard())
                    .findFirst().orElseThrow(() -> new IllegalStateException("the backup has no shard " + address.shard()));
            List<PendingPrepare> mine = prepared.stream().filter(p -> p.shard() == address.shard()).toList();
            try (var c = shards.open(address.shard())) {
                ReplicaSetup.start(c, address, attachment.account(), cut.gtid(), mine, link, tls.accountRequirement());
            }
            say.accept("shard " + address.shard() + ": replicating " + address.host() + ":" + address.port()
                    + " from GTID " + cut.gtid() + (link.encrypted() ? " over TLS" : "") + (mine.isEmpty() ? "" : ", after " + mine.size()
                    + " XA transaction(s) prepared at the cut"));
        }
        for (Attachment.ShardAddress address : attachment.shards()) {
            try (var c = shards.open(address.shard())) {
                SeedCheck.caughtUp(c, address, attachment.account(), tls.jdbcOptions(attachment.shardCertificate()),
                        CATCH_UP_MILLIS);
            }
        }
        say.accept("every replica applied what its primary shard wrote since the cut");
    }
}
