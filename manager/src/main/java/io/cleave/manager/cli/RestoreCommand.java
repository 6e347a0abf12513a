package io.cleave.manager.cli;

import io.cleave.manager.backup.restore.Restore;
import io.cleave.manager.backup.restore.RestoreRequest;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.Callable;

/** {@code cleave restore --from LOCATION [--backup ID | --to-time T | --to-cut N] --home NEWHOME [--shards N]}. */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Builds a new home from a backup location at one consistent point: a backup's own cut (--backup;"
                + " default: the newest), or with archived binlogs any recorded cut (--to-cut) or the last one at or before"
                + " a time (--to-time). Fresh datadirs, the rows loaded in parallel, secondary indexes built after,"
                + " every table checked against the backup's checksums; --shards N routes the rows into N shards by the"
                + " restored rules. The new home is left stopped with its config: start it with the command printed at"
                + " the end. Never touches the home the backup came from; NEWHOME must not exist or be empty."})
public final class RestoreCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @Mixin
    LocationOptions location;

    @Option(names = "--from", required = true, paramLabel = "LOCATION", description = "A directory or s3://BUCKET/PREFIX.")
    String from;

    @Option(names = "--backup", paramLabel = "ID", description = "Restore this backup at its cut.")
    String backup;

    @Option(names = "--to-time", paramLabel = "TIME", description = "'2026-11-28 10:15:00' (local time) or an ISO"
            + " instant: the last recorded cut at or before it.")
    String toTime;

    @Option(names = "--to-cut", paramLabel = "N", description = "A recorded cut's id ('cleave backups' shows the range).")
    Long toCut;

    @Option(names = "--shards", paramLabel = "N", description = "How many shards the new home has (default: as many as"
            + " the backup).")
    Integer shards;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        if ((backup != null ? 1 : 0) + (toTime != null ? 1 : 0) + (toCut != null ? 1 : 0) > 1) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give one of --backup, --to-time and --to-cut");
        }
        if (options.home == null) {
            throw new CommandLine.ParameterException(spec.commandLine(), "give --home NEWHOME: the new home to build");
        }
        if (shards != null && (shards < 1 || shards > 64)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--shards takes 1..64");
        }
        RestoreRequest request = new RestoreRequest(from, backup, toTime == null ? OptionalLong.empty()
                : OptionalLong.of(millis(toTime)), toCut == null ? OptionalLong.empty() : OptionalLong.of(toCut),
                options.home().root(), shards == null ? OptionalInt.empty() : OptionalInt.of(shards));
        Restore.Result r = new Restore(location.settings(options.configIfAny()), options.env, line -> {
            out.println(line);
            out.flush();
        }).run(request);
        if (!r.verified()) {
            out.println("restore into " + r.home() + " FAILED its checks against the backup:");
            r.problems().forEach(p -> out.println("  " + p));
            out.println("the home is left marked unfinished (state/restore-unfinished): 'cleave up' refuses it; run the"
                    + " restore again (from another backup if it fails the same way), or delete " + r.home());
            out.flush();
            return ExitCodes.FAILED;
        }
        out.printf("restored %s (%s) into %s: %,d rows on %d shards in %.1f s, every table equal to the backup's%n",
                r.backup(), r.point(), r.home(), r.rows(), r.shards(), r.millis() / 1000.0);
        out.println("start it with: cleave up --home " + r.home() + " --config " + r.config()
                + "  (it listens where the backed-up home did: stop that one first, or change proxy.listen,"
                + " admin.port and server.base_port in " + r.config() + ")");
        out.flush();
        return ExitCodes.OK;
    }

    private long millis(String text) {
        try {
            return java.time.Instant.parse(text).toEpochMilli();
        } catch (DateTimeParseException e) {
            try {
                return LocalDateTime.parse(text, DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm[:ss]"))
                        .atZone(ZoneId.systemDefault()).toInstant().toEpochMilli();
            } catch (DateTimeParseException e2) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--to-time '" + text + "' is not a time:"
                        + " expected '2026-11-28 10:15:00' or 2026-11-28T09:15:00Z");
            }
        }
    }
}
