package io.cleave.manager.cli;

import io.cleave.manager.config.ByteSize;
import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.daemon.AccountProvisioning;
import io.cleave.manager.daemon.Provisioned;
import io.cleave.manager.daemon.Provisioner;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.DaemonLock;
import io.cleave.manager.instance.InstancePlan;
import io.cleave.manager.instance.LocalStorageProbe;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** Provisions a home without starting the daemon; running it again changes nothing that is right. */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Plans the shards, renders their my.cnf, initializes datadirs and creates the shard account.",
                "Idempotent: what is already right is left alone. 'cleave up' does this itself first."})
public final class InitCommand implements Callable<Integer> {

    @Mixin
    HomeOptions options;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        CleaveHome home = options.home();
        CleaveConfig config = ConfigLoader.load(options.config());
        home.createDirectories();
        try (DaemonLock lock = DaemonLock.acquire(home)) {
            Provisioned provisioned = new Provisioner(home, config, CleaveHome.cacheDir(options.env),
                    options.env.getOrDefault("PATH", ""), new LocalStorageProbe()).prepare();
            AccountProvisioning.provisionStopped(provisioned);
            PrintWriter out = spec.commandLine().getOut();
            out.printf("home %s initialized for %d shards on %s%n", home, provisioned.plans().size(), provisioned.binary().describe());
            out.printf("%-9s %-6s %-10s %-6s %-9s %s%n", "INSTANCE", "PORT", "SERVER_ID", "POOL", "FLUSH", "DATADIR");
            for (InstancePlan p : provisioned.plans()) {
                out.printf("%-9s %-6d %-10d %-6s %-9s %s%n", p.name(), p.port(), p.serverId(), ByteSize.format(p.bufferPoolBytes()),
                        p.directIo() ? "O_DIRECT" : "fsync", p.datadir());
            }
            out.flush();
        }
        return ExitCodes.OK;
    }
}
