package io.cleave.bench.cli;

import io.cleave.bench.compare.ComparisonRunner;
import io.cleave.bench.compare.Configuration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

@Command(name = "scaling", mixinStandardHelpOptions = true,
    description = {"One instance holding the whole buffer pool against N shards with 1/N each behind the proxy, same "
        + "data and memory in total, alternating, each repeated.",
        "The one instance is a 1-shard home measured directly on its port and through the proxy. TPC-C: warehouses in "
            + "ranges over the shards, item a reference table (config/tpcc.yaml's shape). sysbench: ids hashed over "
            + "the shards (config/sysbench.yaml's shape)."})
final class ScalingCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    HomeMixin home;

    @Mixin
    MeasureMixin measure;

    @Mixin
    WorkloadMixin workload;

    @Option(names = "--shards", split = ",", defaultValue = "1,2,4",
        description = "Shard counts of the homes behind the proxy (default: ${DEFAULT-VALUE}).")
    List<Integer> shards;

    @Option(names = "--no-direct", description = "Leave out the 1-instance-direct baseline.")
    boolean noDirect;

    @Override
    public Integer call() throws Exception {
        WorkloadMixin.Setup setup = workload.setup(spec, home, "scaling", WorkloadMixin.DatasetWrapper.NONE);
        List<Configuration> configurations = new ArrayList<>();
        if (!noDirect) {
            configurations.add(Configuration.direct());
        }
        for (int n : shards) {
            configurations.add(Configuration.proxy(n));
        }
        String startedAt = ComparisonReporting.now();
        setup.parameters().put("buffer pool", home.bufferPool + " in total per home, split evenly over its shards");
        home.describeCpus(setup.parameters());
        setup.parameters().put("runs", measure.rounds + " rounds x " + measure.duration.toSeconds() + " s, each after a "
            + measure.warmup.toSeconds() + " s warm-up; configurations alternate, only the measured home runs");
        ComparisonRunner runner = new ComparisonRunner(home.cleaveJar(), setup.template(), System.out);
        ComparisonRunner.Outcome outcome = runner.run(setup.dataset(), setup.runs(), measure.plan(configurations));
        String title = (setup.tpcc() ? "TPC-C" : "sysbench")
            + ": one instance with the whole buffer pool vs N shards behind the proxy";
        return ComparisonReporting.finish(spec, setup.name(), title, startedAt, setup.parameters(), outcome,
            setup.versions(), measure.output(setup.name()), measure.doc, home.datadirRoot);
    }
}
