package io.cleave.bench.compare;

import io.cleave.bench.home.BenchHome;
import io.cleave.bench.measure.HostCpu;
import io.cleave.bench.measure.LoadAverage;
import io.cleave.bench.measure.ProcessCpu;
import java.time.Instant;

/**
 * Meters one timed run on a home that is up: CPU of the daemon (the proxy), of the shards, of this
 * client and of the whole host from /proc, client and shard statement counts, and the load
 * average. {@link #start} just before the run, {@link #stop} just after it.
 */
public final class RunMeter {
    private final BenchHome home;
    private final Access access;
    private final LoadAverage loadBefore;
    private final String startedAt;
    private final long proxyStatementsBefore;
    private final long shardStatementsBefore;
    private final HostCpu hostBefore;
    private final long clientCpuBefore;
    private final long proxyCpuBefore;
    private final long shardCpuBefore;

    private RunMeter(BenchHome home, Access access) {
        this.home = home;
        this.access = access;
        this.loadBefore = LoadAverage.read();
        this.startedAt = Instant.now().toString();
        // Counters are read outside the CPU window: scraping /metrics and asking the shards costs CPU too.
        this.proxyStatementsBefore = access == Access.PROXY ? home.proxyStatements() : 0;
        this.shardStatementsBefore = home.shardStatements();
        this.hostBefore = HostCpu.read();
        this.clientCpuBefore = ProcessCpu.selfAndChildrenMicros();
        this.proxyCpuBefore = ProcessCpu.micros(hopPid());
        this.shardCpuBefore = ProcessCpu.micros(home.shardPids());
    }

    /** The process between client and shard whose CPU is metered: the relay, else the daemon (the proxy). */
    private long hopPid() {
        return access == Access.RELAY ? home.relay().pid() : home.daemonPid();
    }

    public static RunMeter start(BenchHome home, Access access) {
        return new RunMeter(home, access);
    }

    /** The run's measurement as configuration c in the given round, with what the client saw. */
    public Measurement stop(Configuration c, int round, WorkloadResult result) {
        long proxyCpu = ProcessCpu.micros(hopPid()) - proxyCpuBefore;
        long shardCpu = ProcessCpu.micros(home.shardPids()) - shardCpuBefore;
        long clientCpu = ProcessCpu.selfAndChildrenMicros() - clientCpuBefore;
        HostCpu host = HostCpu.read().minus(hostBefore);
        long proxyStatementsAfter = access == Access.PROXY ? home.proxyStatements() : 0;
        long shardStatementsAfter = home.shardStatements();
        LoadAverage loadAfter = LoadAverage.read();
        // Each read of Questions is itself a statement on every shard: leave out the second read's.
        long shardStatements = shardStatementsAfter - shardStatementsBefore - home.spec().shards();
        long clientStatements = access == Access.PROXY ? proxyStatementsAfter - proxyStatementsBefore : shardStatements;
        return new Measurement(c.label(), c.shards(), access, round, startedAt, loadBefore, loadAfter, result,
            proxyCpu, shardCpu, clientStatements, shardStatements, clientCpu, host.busyMicros(), host.totalMicros());
    }
}
