package io.cleave.manager.cli;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.imports.ImportStatus;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.Locale;
import java.util.concurrent.Callable;

/** {@code cleave import --from mysql://USER:PASSWORD@HOST:PORT/DATABASE [--wait]} and {@code cleave import --status}. */
@Command(name = "import", mixinStandardHelpOptions = true,
        description = {"Imports a database from a running MySQL or MariaDB server without stopping its clients: at once"
                + " the proxy fronts it (its tables are routed to the source, so applications can point at the proxy);"
                + " its schema is created on every shard; its rows move to the shards by the sharding rules (copy,"
                + " catch-up from the source's row binlog, verification, one short held cutover); then the source is let"
                + " go, left as it was: Cleave never writes to it.",
                "What stands in the way (no row binlog, a table without a primary key, a unique key leaving out the"
                        + " sharding column, foreign keys, triggers) is reported before anything changes.",
                "The account serves the database through the proxy until it is moved and reads the binlog: it needs SELECT, INSERT,"
                        + " UPDATE, DELETE, SHOW VIEW, TRIGGER, REPLICATION CLIENT and REPLICATION SLAVE on the source (RELOAD"
                        + " too on MySQL). Its password is kept in the home's state (0600) while the source is attached,"
                        + " and never shown.",
                "--status shows the import's state and each table's progress; --wait follows it to the end."})
public final class ImportCommand implements Callable<Integer> {

    private static final long POLL_MILLIS = 250;

    @Mixin
    HomeOptions options;

    @Mixin
    FollowOptions follow;

    @Option(names = "--from", paramLabel = "URL", description = "mysql://USER:PASSWORD@HOST:PORT/DATABASE (percent-encode"
            + " @ : / in the user or password; leave the password out to take it from $CLEAVE_SOURCE_PASSWORD)")
    String from;

    @Option(names = "--status", description = "Show the import's state and each table's progress.")
    boolean status;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        if ((from == null) == !status) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "give --from mysql://USER:PASSWORD@HOST:PORT/DATABASE to import, or --status");
        }
        AdminClient daemon = options.daemon();
        PrintWriter out = spec.commandLine().getOut();
        ImportStatus s = status ? daemon.importStatus() : daemon.startImport(withPassword(from, options.env));
        if (!follow.await) {
            print(out, s);
            return s.state().equals("failed") ? ExitCodes.FAILED : ExitCodes.OK;
        }
        if (!follow.json) {
            out.printf("importing %s: %d tables, %d views, %d routines%n", s.source(), s.tables().size(), s.views().size(),
                    s.routines().size());
        }
        ImportProgressLine line = new ImportProgressLine(out, !follow.json && System.console() != null);
        while (!s.state().equals("done") && !s.state().equals("failed")) {
            if (!follow.json) {
                line.show(s);
            }
            Thread.sleep(POLL_MILLIS);
            s = daemon.importStatus();
        }
        if (follow.json) {
            print(out, s);
        } else {
            line.show(s);
            out.println(s.state().equals("done")
                    ? String.format(Locale.ROOT, "import of %s done: %,d rows, clients paused %.1f ms at the cutover;"
                    + " the source is detached", s.source(), s.rowsCopied(), s.pauseMillis())
                    : "import of " + s.source() + " failed: " + s.message());
        }
        out.flush();
        return s.state().equals("done") ? ExitCodes.OK : ExitCodes.FAILED;
    }

    /**
     * The URL with the password from {@code CLEAVE_SOURCE_PASSWORD} when it names none, so that the
     * password need not be in the command line (which other users of the host can read).
     */
    static String withPassword(String url, java.util.Map<String, String> env) {
        String password = env.get("CLEAVE_SOURCE_PASSWORD");
        int at = url.lastIndexOf('@');
        String scheme = "mysql://";
        if (password == null || at < 0 || !url.startsWith(scheme) || url.substring(scheme.length(), at).contains(":")) {
            return url;
        }
        return url.substring(0, at) + ":" + java.net.URLEncoder.encode(password, java.nio.charset.StandardCharsets.UTF_8)
                .replace("+", "%20") + url.substring(at);
    }

    private void print(PrintWriter out, ImportStatus s) throws IOException {
        if (follow.json) {
            out.println(MoveFollower.JSON.writeValueAsString(s));
        } else {
            out.printf("import of %s: %s%s%n", s.source(), s.state(), s.message() == null ? "" : " (" + s.message() + ")");
            out.printf(Locale.ROOT, "  rows %,d/%,d, move %d%s%n", s.rowsCopied(), s.rowsTotal(), s.move(),
                    s.pauseMillis() > 0 ? String.format(Locale.ROOT, ", clients paused %.1f ms at the cutover", s.pauseMillis()) : "");
            String format = "  %-32s %-34s %-9s %s%n";
            out.printf(format, "TABLE", "RULE", "STATE", "ROWS");
            for (ImportStatus.Table t : s.tables()) {
                out.printf(Locale.ROOT, format, t.table(), t.rule(), t.state(),
                        String.format(Locale.ROOT, "%,d/%,d", t.rowsCopied(), t.rowsTotal()));
            }
            if (!s.views().isEmpty()) {
                out.println("  views: " + String.join(", ", s.views()));
            }
            if (!s.routines().isEmpty()) {
                out.println("  routines: " + String.join(", ", s.routines()).toLowerCase(Locale.ROOT));
            }
        }
        out.flush();
    }
}
