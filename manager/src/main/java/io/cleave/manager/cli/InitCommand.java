package io.cleave.manager.cli;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.daemon.AccountProvisioning;
import io.cleave.manager.daemon.Provisioned;
import io.cleave.manager.daemon.Provisioner;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.DaemonLock;
import io.cleave.manager.instance.PlanText;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** Provisions a home without starting the daemon; running it again changes nothing that is right. */
@Command(name = "init", mixinStandardHelpOptions = true,
        description = {"Plans the shards (printing the plan, as 'cleave plan' does), renders their my.cnf, initializes datadirs",
                "and creates the shard account.",
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
                    options.env.getOrDefault("PATH", "")).prepare();
            AccountProvisioning.provisionStopped(provisioned);
            PrintWriter out = spec.commandLine().getOut();
            out.print(PlanText.render(provisioned.hostPlan()));
            out.printf("%nhome %s initialized for %d shards on %s%n", home, provisioned.plans().size(), provisioned.binary().describe());
            out.flush();
        }
        return ExitCodes.OK;
    }
}
