package io.cleave.manager.supervisor;

import io.cleave.manager.instance.InstancePlan;
import io.cleave.manager.instance.ServerBinary;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Starts one instance's server process: {@code [numactl ...|taskset -c CPUS] mysqld --defaults-file=shard-N.cnf}. */
public final class MysqldLauncher {

    private final ServerBinary binary;
    private final Path accountInitFile;

    /** @param accountInitFile SQL run at start while the shard account is not yet provisioned */
    public MysqldLauncher(ServerBinary binary, Path accountInitFile) {
        this.binary = binary;
        this.accountInitFile = accountInitFile;
    }

    public ServerBinary binary() {
        return binary;
    }

    public MysqldProcess launch(InstancePlan plan, boolean provisionAccount) throws IOException {
        Files.createDirectories(plan.consoleLog().getParent());
        Files.createDirectories(plan.logDir());
        ProcessBuilder builder = new ProcessBuilder(command(plan, provisionAccount))
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(plan.consoleLog().toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")));
        return LocalMysqldProcess.launched(builder.start());
    }

    List<String> command(InstancePlan plan, boolean provisionAccount) {
        List<String> cmd = new ArrayList<>();
        cmd.addAll(plan.cpu().launch());
        cmd.add(binary.mysqld().toString());
        cmd.add("--defaults-file=" + plan.cnf()); // must come first: mysqld reads it before any other option
        if (provisionAccount) {
            cmd.add("--init-file=" + accountInitFile);
        }
        return cmd;
    }
}
