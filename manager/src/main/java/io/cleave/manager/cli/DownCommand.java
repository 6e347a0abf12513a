package io.cleave.manager.cli;

import io.cleave.manager.admin.AdminClient;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.supervisor.ProcessInspector;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Stops the daemon of a home and every instance cleanly. Instances left running by a daemon that
 * died are stopped too, so nothing of the home stays behind.
 */
@Command(name = "down", mixinStandardHelpOptions = true,
        description = "Stops the proxy and every instance cleanly, then the daemon.")
public final class DownCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @Option(names = "--timeout", paramLabel = "SECONDS", defaultValue = "300",
            description = "How long to wait for the daemon to stop (default: ${DEFAULT-VALUE}).")
    long timeoutSeconds;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException, InterruptedException {
        CleaveHome home = options.home();
        PrintWriter out = spec.commandLine().getOut();
        Optional<AdminClient> client = AdminClient.connect(home);
        if (client.isPresent()) {
            long pid = stop(client.get(), timeoutSeconds);
            out.printf("stopped the cleave daemon (pid %d) of %s and its instances%n", pid, home.root());
        }
        int orphans = stopOrphans(home, out);
        if (client.isEmpty() && orphans == 0) {
            out.printf("no cleave daemon is running for home %s; nothing to stop%n", home.root());
        }
        out.flush();
        return ExitCodes.OK;
    }

    /** Asks the daemon behind {@code client} to stop its proxy, its instances and itself, and waits; its pid. */
    static long stop(AdminClient client, long timeoutSeconds) throws IOException, InterruptedException {
        long pid = client.info().pid();
        client.shutdown();
        Optional<ProcessHandle> daemon = ProcessHandle.of(pid);
        if (daemon.isPresent()) {
            try {
                daemon.get().onExit().get(timeoutSeconds, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException("daemon pid " + pid + " did not stop within " + timeoutSeconds + " s");
            }
        }
        return pid;
    }

    /** Servers of this home whose daemon is gone (killed): stopped with SIGTERM, then SIGKILL. */
    private int stopOrphans(CleaveHome home, PrintWriter out) throws IOException {
        if (!Files.isDirectory(home.etc())) {
            return 0;
        }
        List<Path> cnfs;
        try (Stream<Path> files = Files.list(home.etc())) {
            cnfs = files.filter(p -> p.getFileName().toString().endsWith(".cnf")).sorted().toList();
        }
        int stopped = 0;
        for (Path cnf : cnfs) {
            Optional<ProcessHandle> server = ProcessInspector.findServerFor(cnf);
            if (server.isEmpty()) {
                continue;
            }
            ProcessHandle p = server.get();
            p.destroy();
            try {
                p.onExit().get(timeoutSeconds, TimeUnit.SECONDS);
            } catch (Exception e) {
                p.destroyForcibly();
            }
            out.printf("stopped orphaned server pid %d (%s)%n", p.pid(), cnf.getFileName());
            stopped++;
        }
        return stopped;
    }
}
