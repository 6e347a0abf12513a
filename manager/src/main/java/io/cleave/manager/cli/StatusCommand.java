package io.cleave.manager.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.admin.StatusReport;
import io.cleave.manager.config.ByteSize;
import io.cleave.manager.supervisor.InstanceStatus;
import io.cleave.proxy.deadlock.DeadlockReport;
import io.cleave.proxy.server.XaRecovery;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/** Prints the state of every instance of the running daemon. */
@Command(name = "status", mixinStandardHelpOptions = true,
        description = "Shows each instance: state, pid, socket/port, uptime, restarts, buffer pool, datadir, server version;"
                + " then the in-doubt transactions and the latest deadlock across shards.")
public final class StatusCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Mixin
    HomeOptions options;

    @Option(names = "--json", description = "Print the status as JSON, for scripts.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        AdminClient client = options.daemon();
        StatusReport report = client.status();
        PrintWriter out = spec.commandLine().getOut();
        if (json) {
            out.println(JSON.writeValueAsString(report));
        } else {
            print(report, out);
        }
        out.flush();
        return report.ready() ? ExitCodes.OK : ExitCodes.NOT_READY;
    }

    static void print(StatusReport report, PrintWriter out) {
        out.printf("daemon pid %d, home %s, %s; proxy: %s%n", report.daemonPid(), report.home(),
                report.ready() ? "all instances ready" : "NOT all instances ready", report.proxy());
        out.printf("server: %s%n", report.serverBinary());
        if (report.shardsNote() != null) {
            out.printf("shards: %s%n", report.shardsNote());
        }
        out.println();
        String format = "%-9s %-10s %-8s %-40s %-6s %-9s %-8s %-6s %-16s %s%n";
        out.printf(format, "INSTANCE", "STATE", "PID", "SOCKET", "PORT", "UPTIME", "RESTARTS", "POOL", "VERSION", "DATADIR");
        for (InstanceStatus i : report.instances()) {
            out.printf(format, i.name(), i.state(), i.pid() == null ? "-" : i.pid(), i.socket(), i.port(),
                    uptime(i.uptimeSeconds()), i.restarts(), ByteSize.format(i.bufferPoolBytes()),
                    i.serverVersion() == null ? "-" : i.serverVersion(), i.datadir());
        }
        for (InstanceStatus i : report.instances()) {
            if (i.lastError() != null && i.state() != io.cleave.manager.supervisor.InstanceState.RUNNING) {
                out.printf("%n%s (%s): %s%n", i.name(), i.state(), i.lastError());
            }
        }
        printRefusedDatabases(report.refusedDatabases(), report.heldTables(), out);
        printInDoubt(report.inDoubt(), out);
        printLatestDeadlock(report.latestDeadlock(), out);
        printSchemaDrift(report.schemaDrift(), out);
        printStandby(report.standby(), out);
        printCoordination(report.coordination(), out);
    }

    /** The databases the proxy refuses by name, each with why and what serves it again. */
    static void printRefusedDatabases(java.util.Map<String, String> refused, java.util.Map<String, List<String>> held,
                                      PrintWriter out) {
        if (refused == null || refused.isEmpty()) {
            return;
        }
        out.printf("%nrefused databases (clients naming them get error 1044):%n");
        new java.util.TreeMap<>(refused).forEach((database, why) -> {
            out.printf("  %s: %s%n", database, why);
            if (held == null) {
                out.printf("    tables set aside: unknown (shard 0 could not be read)%n");
            } else if (held.containsKey(database)) {
                out.printf("    tables set aside in Cleave's schema on every shard (views and routines reading them fail): %s%n",
                        String.join(", ", held.get(database)));
            }
        });
    }

    /** Who is the pair's primary in etcd, the epoch, and whether this daemon holds the lease (or why it is fenced). */
    static void printCoordination(io.cleave.manager.coordination.CoordinationReport c, PrintWriter out) {
        if (c == null) {
            return;
        }
        out.printf("%ncoordination: etcd %s, cluster %s: this home is %s; epoch %d; primary: %s; %s%n",
                String.join(",", c.etcd()), c.cluster(), c.state(), c.epoch(),
                c.primary() == null ? "none (no live lease)" : c.primary(),
                c.holdsLease() ? "holds the lease (" + c.leaseLeftMillis() + " ms left before it fences)" : "holds no lease");
        if (c.reason() != null) {
            out.printf("  %s%n", c.reason());
        }
        if (c.shardsReadOnly() != null) {
            out.printf("  %s%n", c.shardsReadOnly());
        }
    }

    /** The standby pair: this home's role, the primary, the epoch, and each shard's replication. */
    static void printStandby(io.cleave.manager.standby.StandbyReport standby, PrintWriter out) {
        if (standby == null) {
            return;
        }
        out.printf("%nstandby pair: this home is the %s; primary: %s; epoch %d; semi-sync %s%n",
                standby.role().name().toLowerCase(java.util.Locale.ROOT), standby.primary(), standby.epoch(),
                standby.semiSync() ? "on (AFTER_SYNC, no fallback to async)" : "off");
        if (standby.maps() != null) {
            out.printf("shard map: this home routes by version %d; the newest written for the standby: %s%n",
                    standby.maps().routed(), standby.maps().replicated() == 0 ? "none since the seed"
                            : "version " + standby.maps().replicated());
        }
        if (standby.relay() != null) {
            out.printf("proxy port: %s%n", standby.relay().describe());
        }
        if (standby.role() == io.cleave.manager.standby.HostRole.PRIMARY) {
            out.printf("the standby's admin API: %s%n", standby.standbyAdmin() != null ? standby.standbyAdmin()
                    : "not told yet (the standby's daemon says it when it asks for the shards, every 2 s): until then a"
                    + " switchover needs --standby and this home cannot rejoin by itself after a failover");
        }
        String format = "%-6s %-10s %-4s %-4s %-8s %-9s %-8s %-8s %-10s %-24s %s%n";
        out.printf(format, "SHARD", "SEMI-SYNC", "IO", "SQL", "LAG", "READ-ONLY", "WAITING", "ASYNC", "TLS", "GTID", "ERROR");
        for (io.cleave.manager.standby.ShardReplication r : standby.shards()) {
            out.printf(format, r.shard(), r.semiSync() == null ? "-" : r.semiSync(), r.ioThread() == null ? "-" : r.ioThread(),
                    r.sqlThread() == null ? "-" : r.sqlThread(), r.lagSeconds() < 0 ? "-" : r.lagSeconds() + "s",
                    r.readOnly() ? "yes" : "no", r.waitingCommits(), r.asyncCommits(), r.tls() == null ? "-" : r.tls(),
                    r.ioThread() == null ? r.gtidBinlogPos() : r.gtidSlavePos(), r.lastError() == null ? "" : r.lastError());
        }
    }

    /** Where the shards' schemas differ, each finding on a line, and what fixes it. */
    static void printSchemaDrift(List<String> drift, PrintWriter out) {
        if (drift == null) {
            out.printf("%nschemas of the shards: not compared (every shard must run)%n");
            return;
        }
        out.printf("%nschemas of the shards: %s%n", drift.isEmpty() ? "alike"
                : drift.size() + " difference(s) ('cleave repair' makes them alike)");
        for (String d : drift) {
            out.printf("  %s%n", d);
        }
    }

    /** The last deadlock across shards the proxy broke, as it was logged (statements by their shape only). */
    static void printLatestDeadlock(DeadlockReport deadlock, PrintWriter out) {
        if (deadlock == null) {
            out.printf("%nlatest deadlock across shards: none since the proxy started%n");
            return;
        }
        out.printf("%nlatest deadlock across shards: %s, shards %s, transaction (%d) rolled back%n%s%n",
                deadlock.detectedAt(), deadlock.shards(), deadlock.victim(), deadlock.text());
    }

    /** The count, then a line per branch: an operator sees at a glance what recovery has not settled. */
    static void printInDoubt(List<XaRecovery.InDoubtBranch> inDoubt, PrintWriter out) {
        if (inDoubt == null) {
            out.printf("%nin-doubt transactions: unknown (the proxy is not running)%n");
            return;
        }
        out.printf("%nin-doubt transaction branches: %d%s%n", inDoubt.size(),
                inDoubt.isEmpty() ? "" : " (see 'cleave xa list'; 'cleave xa --help' tells how to settle them)");
        for (XaRecovery.InDoubtBranch b : inDoubt) {
            out.printf("  %s%n", InDoubtTable.line(b));
        }
    }

    static String uptime(long seconds) {
        if (seconds < 60) {
            return seconds + "s";
        }
        if (seconds < 3600) {
            return seconds / 60 + "m" + seconds % 60 + "s";
        }
        if (seconds < 86400) {
            return seconds / 3600 + "h" + (seconds % 3600) / 60 + "m";
        }
        return seconds / 86400 + "d" + (seconds % 86400) / 3600 + "h";
    }
}
