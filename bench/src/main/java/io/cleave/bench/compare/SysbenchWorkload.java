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
    public WorkloadResult run(BenchHome home, Configuration c, Duration time, String label) {
        SysbenchTarget target = target(home, c);
        SysbenchOutput out = sysbench.run(target, options, time);
        return new WorkloadResult(out.seconds(), out.transactions(), out.queries(), out.tps(), out.latency(),
            out.tpsSeries(), out.errors(), null);
    }

    /** The shard itself, the relay in front of it (which must run), or the proxy, over c's transport. */
    static SysbenchTarget target(BenchHome home, Configuration c) {
        boolean unix = c.transport() == Transport.UNIX;
        return switch (c.access()) {
            case DIRECT -> {
                SysbenchTarget shard = home.sysbenchShard(0, SysbenchDataset.DATABASE);
                yield unix ? shard.overSocket(home.shardSocket()) : shard;
            }
            case RELAY -> {
                SysbenchTarget shard = home.sysbenchShard(0, SysbenchDataset.DATABASE);
                yield unix ? shard.overSocket(home.relay().socket()) : shard.onPort(home.relay().port());
            }
            case PROXY -> {
                SysbenchTarget proxy = c.account() == null ? home.sysbenchProxy(SysbenchDataset.DATABASE)
                    : home.sysbenchProxy(SysbenchDataset.DATABASE, c.account().user(), c.account().password());
                yield unix ? proxy.overSocket(home.proxySocket()) : proxy;
            }
        };
    }
}
