package io.cleave.manager.cli;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.backup.BackupPhase;
import io.cleave.manager.backup.BackupStatus;
import io.cleave.manager.backup.restore.Verify;
import io.cleave.manager.config.BackupEngine;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code cleave backup [--to LOCATION] [--wait] [--json]}, {@code --status ID}, {@code --verify ID}. */
@Command(name = "backup", mixinStandardHelpOptions = true,
        description = {"Backs up the running home at one consistent cut: every shard's rows read at the same cut (no"
                + " transaction across shards torn), with the shard map, the sharding rules, the accounts and the config,"
                + " in zstd chunk files with SHA-256 checksums and a manifest written last. Prints the backup's id at once;"
                + " --wait follows it with a progress bar.",
                "--to is a directory or s3://BUCKET/PREFIX (default: backup.location of the config).",
                "--engine physical copies each shard's files with its server's mariadb-backup and rolls them forward to"
                        + " the cut (MariaDB shards with a mariadb-backup of their version); logical reads the rows.",
                "--status ID shows a backup's progress; --verify ID restores it into a scratch home, checks every table"
                        + " against the manifest's checksums and reports (no daemon needed; --from names the location)."})
public final class BackupCommand implements Callable<Integer> {

    private static final long POLL_MILLIS = 250;

    @Mixin
    HomeOptions options;

    @Mixin
    FollowOptions follow;

    @Mixin
    LocationOptions location;

    @Option(names = "--to", paramLabel = "LOCATION", description = "A directory or s3://BUCKET/PREFIX.")
    String to;

    @Option(names = "--engine", paramLabel = "ENGINE", description = "physical (each shard copied by its server's"
            + " mariadb-backup, rolled forward to the cut), logical (rows read at the cut; any server) or auto (physical"
            + " where a mariadb-backup of the shards' version is found, else logical). Default: backup.engine of the"
            + " config, else auto.")
    String engine;

    @Option(names = "--max-rate", paramLabel = "MB/S", description = "Write at most this many MB per second to the"
            + " location, all the backup's writers together (0: no bound). Default: backup.max_rate_mb_s of the config,"
            + " else no bound.")
    Integer maxRate;

    @Option(names = "--status", paramLabel = "ID", description = "Show a backup's progress.")
    String status;

    @Option(names = "--verify", paramLabel = "ID", description = "Restore backup ID into a scratch home and check it.")
    String verify;

    @Option(names = "--from", paramLabel = "LOCATION", description = "With --verify: where the backup is (default:"
            + " backup.location of the config).")
    String from;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if (verify != null) {
            return verify(out);
        }
        BackupEngine chosen = BackupEngine.parse(engine);
        if (engine != null && chosen == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--engine " + engine
                    + ": expected physical, logical or auto");
        }
        if (maxRate != null && maxRate < 0) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--max-rate " + maxRate
                    + ": give 0 (no bound) or more MB/s");
        }
        AdminClient daemon = options.daemon();
        BackupStatus s = status != null ? daemon.backup(status) : daemon.startBackup(to, chosen, maxRate);
        if (!follow.await) {
            if (follow.json) {
                out.println(MoveFollower.JSON.writeValueAsString(s));
            } else {
                out.println(status != null ? BackupProgressLine.line(s) : "backup " + s.id() + " to " + s.location()
                        + " started; follow it with 'cleave backup --status " + s.id() + "'");
            }
            out.flush();
            return s.phase() == BackupPhase.FAILED ? ExitCodes.FAILED : ExitCodes.OK;
        }
        BackupProgressLine line = new BackupProgressLine(out, !follow.json && System.console() != null);
        while (!s.phase().terminal()) {
            if (!follow.json) {
                line.show(s);
            }
            Thread.sleep(POLL_MILLIS);
            s = daemon.backup(s.id());
        }
        if (follow.json) {
            out.println(MoveFollower.JSON.writeValueAsString(s));
        } else {
            line.show(s);
            out.println(s.phase() == BackupPhase.DONE
                    ? String.format(Locale.ROOT, "%s backup %s done: %,d rows, %.1f MB read, %.1f MB stored in %s in %.1f s;"
                    + " snapshots open %.1f s, history list at most %,d", s.engine(), s.id(), s.rowsRead(), s.bytesRead() / 1e6,
                    s.storedBytes() / 1e6, s.location(), s.durationMillis() / 1000.0, s.snapshotMillis() / 1000.0,
                    s.historyLength())
                    : "backup " + s.id() + " failed: " + s.message());
        }
        out.flush();
        return s.phase() == BackupPhase.DONE ? ExitCodes.OK : ExitCodes.FAILED;
    }

    private int verify(PrintWriter out) throws Exception {
        var settings = location.settings(options.configIfAny());
        String where = from != null ? from : settings.location().orElseThrow(() -> new CommandLine.ParameterException(
                spec.commandLine(), "give --from LOCATION (or set backup.location in the config)"));
        Verify.Report r = new Verify(settings, options.env, line -> {
            if (!follow.json) {
                out.println(line);
                out.flush();
            }
        }).run(where, verify);
        if (follow.json) {
            out.println(MoveFollower.JSON.writeValueAsString(r));
        } else {
            out.println(r.summary());
            r.problems().forEach(p -> out.println("  " + p));
        }
        out.flush();
        return r.ok() ? ExitCodes.OK : ExitCodes.FAILED;
    }
}
