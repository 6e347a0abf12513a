package io.cleave.manager.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.daemon.HomePlanner;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.instance.HostPlan;
import io.cleave.manager.instance.PlanReport;
import io.cleave.manager.instance.PlanText;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.concurrent.Callable;

/** Shows what init and up would run, changing nothing. */
@Command(name = "plan", mixinStandardHelpOptions = true,
        description = {"Shows the plan of the home's instances on this host, changing nothing: per shard its CPUs, NUMA node,",
                "memory, datadir and log device, and every my.cnf value that differs from the server's default, with why.",
                "A plan that cannot work is refused (exit 3) with what to change. 'init' and 'up' log the same plan."})
public final class PlanCommand implements Callable<Integer> {

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    @Mixin
    HomeOptions options;

    @Option(names = "--json", description = "Print the plan as JSON, for scripts.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        CleaveHome home = options.home();
        CleaveConfig config = ConfigLoader.load(options.config());
        HostPlan plan = new HomePlanner(home, config, CleaveHome.cacheDir(options.env), options.env.getOrDefault("PATH", "")).plan();
        PrintWriter out = spec.commandLine().getOut();
        out.print(json ? JSON.writeValueAsString(PlanReport.of(plan)) + "\n" : PlanText.render(plan));
        out.flush();
        return ExitCodes.OK;
    }
}
