package io.cleave.manager.cli;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.admin.StatusReport;
import io.cleave.manager.backup.restore.UnfinishedRestore;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.daemon.CleaveProxyService;
import io.cleave.manager.daemon.DaemonOptions;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.DaemonInfo;
import io.cleave.manager.instance.LogTail;
import io.cleave.manager.supervisor.InstanceState;
import io.cleave.proxy.server.LeakDetection;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.File;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** Runs the daemon: in the foreground (logs to stdout, systemd style), or detached in the background. */
@Command(name = "up", mixinStandardHelpOptions = true,
        description = {"Initializes what is missing, starts every instance, supervises them and serves the admin API.",
                "Runs in the foreground until SIGTERM or 'cleave down'; --detach runs it in the background."})
public final class UpCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @Option(names = "--detach", description = "Run the daemon in the background (output to <home>/logs/daemon.log) "
            + "and return once every instance is ready.")
    boolean detach;

    @Option(names = "--wait", paramLabel = "SECONDS", defaultValue = "600",
            description = "With --detach: how long to wait for readiness (default: ${DEFAULT-VALUE}).")
    long waitSeconds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        CleaveHome home = options.home();
        Optional<String> unfinished = UnfinishedRestore.refusal(home);
        if (unfinished.isPresent()) {
            throw new IllegalStateException(unfinished.get());
        }
        Path config = options.config();
        if (detach) {
            return detach(home, config);
        }
        LeakDetection.offUnlessAsked();
        Daemon daemon = new Daemon(DaemonOptions.standard(home, config, options.env).withProxy(CleaveProxyService.FACTORY));
        Runtime.getRuntime().addShutdownHook(new Thread(daemon::close, "sigterm"));
        daemon.start();
        daemon.awaitTermination();
        return ExitCodes.OK;
    }

    private int detach(CleaveHome home, Path config) throws IOException, InterruptedException {
        PrintWriter out = spec.commandLine().getOut();
        Optional<AdminClient> running = AdminClient.connect(home);
        if (running.isPresent()) {
            out.printf("a cleave daemon (pid %d) already runs for %s%n", running.get().info().pid(), home.root());
            out.flush();
            return ExitCodes.HOME_BUSY;
        }
        home.createDirectories();
        Path log = home.logs().resolve("daemon.log");
        List<String> cmd = new ArrayList<>();
        if (Files.isExecutable(Path.of("/usr/bin/setsid"))) {
            cmd.add("/usr/bin/setsid"); // its own session: closing the terminal does not signal it
        }
        cmd.add(ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString()));
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(CleaveMain.class.getName());
        cmd.add("up");
        cmd.add("--home=" + home.root());
        cmd.add("--config=" + config);
        Process child = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        long deadline = System.nanoTime() + waitSeconds * 1_000_000_000L;
        while (System.nanoTime() < deadline) {
            if (!child.isAlive() && DaemonInfo.read(home).filter(DaemonInfo::processAlive).isEmpty()) {
                spec.commandLine().getErr().printf("error: the daemon exited (code %d); %s ends:%n%s%n", child.exitValue(), log,
                        LogTail.lastLines(log, 20));
                // An invalid config or a refused plan keeps its own exit code, as in the foreground.
                return child.exitValue() == ExitCodes.CONFIG_INVALID ? ExitCodes.CONFIG_INVALID : ExitCodes.FAILED;
            }
            Optional<AdminClient> client = AdminClient.connect(home);
            if (client.isPresent()) {
                try {
                    StatusReport report = client.get().status();
                    boolean settled = report.instances().stream()
                            .allMatch(i -> i.state() == InstanceState.RUNNING || i.state() == InstanceState.CRASH_LOOP);
                    // Clients connect as soon as this returns: wait for the proxy's outcome too.
                    if (settled && !report.instances().isEmpty() && !report.proxy().equals("not started")) {
                        StatusCommand.print(report, out);
                        out.printf("%ncleave daemon pid %d runs in the background; log: %s; stop it with 'cleave down --home %s'%n",
                                report.daemonPid(), log, home.root());
                        out.flush();
                        return report.ready() && !report.proxy().startsWith("failed") && !report.proxy().startsWith("down")
                                ? ExitCodes.OK : ExitCodes.NOT_READY;
                    }
                } catch (IOException e) {
                    // still starting
                }
            }
            Thread.sleep(100);
        }
        spec.commandLine().getErr().printf("error: instances not ready within %d s; the daemon keeps trying: see 'cleave status' and %s%n",
                waitSeconds, log);
        return ExitCodes.NOT_READY;
    }
}
