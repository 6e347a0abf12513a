package io.cleave.manager.cli;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.backup.BackupCatalog;
import io.cleave.manager.backup.BackupsReport;
import io.cleave.manager.backup.store.BackupStore;
import io.cleave.manager.backup.store.BackupStores;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code cleave backups [--from LOCATION] [--json]}: the backups of a location and the range a restore can reach. */
@Command(name = "backups", mixinStandardHelpOptions = true,
        description = {"Lists the backups of a location (default: backup.location of the config) and the time range a"
                + " restore can reach: from the first complete backup's cut to the last cut recorded while binlogs were"
                + " archived. A backup that never finished (it failed, or its daemon died) is shown as incomplete and"
                + " cannot be restored. Works without a running daemon."})
public final class BackupsCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @Mixin
    LocationOptions location;

    @Option(names = "--from", paramLabel = "LOCATION", description = "A directory or s3://BUCKET/PREFIX.")
    String from;

    @Option(names = "--json", description = "Print it as JSON.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        BackupsReport report;
        Optional<AdminClient> daemon = AdminClient.connect(options.home());
        if (daemon.isPresent() && location.endpoint == null) {
            report = daemon.get().backups(from);
        } else {
            var settings = location.settings(options.configIfAny());
            String where = from != null ? from : settings.location().orElseThrow(() -> new CommandLine.ParameterException(
                    spec.commandLine(), "give --from LOCATION (or set backup.location in the config)"));
            try (BackupStore store = BackupStores.of(where, settings)) {
                report = new BackupCatalog(store).report();
            }
        }
        if (json) {
            out.println(MoveFollower.JSON.writeValueAsString(report));
        } else {
            out.println("backups in " + report.location() + ":");
            String format = "  %-22s %-10s %-9s %-26s %6s %14s %12s%n";
            out.printf(format, "ID", "STATE", "ENGINE", "CUT", "SHARDS", "ROWS", "STORED");
            for (BackupsReport.Entry e : report.backups()) {
                out.printf(Locale.ROOT, format, e.id(), e.complete() ? "complete" : "incomplete",
                        e.engine() == null ? "-" : e.engine(), e.cutAt() == null ? "-" : e.cutAt(),
                        e.complete() ? String.valueOf(e.shards()) : "-", e.complete() ? String.format(Locale.ROOT, "%,d", e.rows()) : "-",
                        e.complete() ? String.format(Locale.ROOT, "%.1f MB", e.storedBytes() / 1e6) : "-");
            }
            out.println(report.restorableFrom() == null ? "nothing to restore yet"
                    : "restorable from " + report.restorableFrom() + " to " + report.restorableTo()
                    + (report.cuts() > 0 ? " (" + report.cuts() + " recorded cuts, " + report.firstCut() + ".."
                    + report.lastCut() + ")" : ""));
            if (report.cuts() > 0) {
                out.println(report.reachableCuts().isEmpty() ? "no recorded cut can be reached from these backups"
                        : "reachable with --to-cut: " + String.join(", ", report.reachableCuts()));
            }
        }
        out.flush();
        return ExitCodes.OK;
    }
}
