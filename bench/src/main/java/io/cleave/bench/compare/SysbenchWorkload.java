package io.cleave.bench.compare;

import io.cleave.bench.home.BenchHome;
import io.cleave.bench.sysbench.Sysbench;
import io.cleave.bench.sysbench.SysbenchOptions;
import io.cleave.bench.sysbench.SysbenchOutput;
import io.cleave.bench.sysbench.SysbenchTarget;
import java.time.Duration;

/** One of sysbench's oltp_* scripts; throughput in transactions (sysbench events) per second. */
public record SysbenchWorkload(SysbenchOptions options, Sysbench sysbench) implements Workload {

    @Override
    public String name() {
        return options.workload();
    }

    @Override
    public String unit() {
        return "tps";
    }

    @Override
    public WorkloadResult run(BenchHome home, Access access, Duration time, String label) {
        SysbenchTarget target = access == Access.DIRECT ? home.sysbenchShard(0, SysbenchDataset.DATABASE)
            : home.sysbenchProxy(SysbenchDataset.DATABASE);
        SysbenchOutput out = sysbench.run(target, options, time);
        return new WorkloadResult(out.seconds(), out.transactions(), out.queries(), out.tps(), out.latency(),
            out.tpsSeries(), out.errors(), null);
    }
}
