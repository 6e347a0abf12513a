package io.cleave.bench.compare;

import io.cleave.bench.measure.LoadAverage;

/**
 * One timed run of one configuration, with the CPU time its processes used over it: the daemon
 * JVM (the proxy), the shard servers together and the client, from /proc, and the whole host's
 * busy and total CPU time (0 when not recorded); client statements as the proxy counted them (or,
 * direct, as the server did) and statements the shards executed (Questions).
 */
public record Measurement(String configuration, int shards, Access access, int round, String startedAt,
                          LoadAverage loadBefore, LoadAverage loadAfter, WorkloadResult result,
                          long proxyCpuMicros, long shardCpuMicros, long clientStatements, long shardStatements,
                          long clientCpuMicros, long hostBusyMicros, long hostTotalMicros) {

    /** Client statements: the client's own count when it keeps one, else the server-side one. */
    public long queries() {
        return result.queries() >= 0 ? result.queries() : clientStatements;
    }

    public double qps() {
        return queries() / result.seconds();
    }

    public double proxyMicrosPerQuery() {
        return perQuery(proxyCpuMicros);
    }

    public double proxyMicrosPerTransaction() {
        return perTransaction(proxyCpuMicros);
    }

    public double shardMicrosPerQuery() {
        return perQuery(shardCpuMicros);
    }

    public double shardMicrosPerTransaction() {
        return perTransaction(shardCpuMicros);
    }

    /** Statements the shards ran per client statement: above 1 when the proxy adds work (fan-out, 2PC, syncs). */
    public double shardStatementsPerQuery() {
        return queries() == 0 ? Double.NaN : (double) shardStatements / queries();
    }

    /**
     * Share of the host's CPU capacity used by anything but this benchmark during the run (other
     * processes, and kernel work charged to none): how disturbed the figure is. NaN when not recorded.
     */
    public double otherCpuShare() {
        if (hostTotalMicros <= 0) {
            return Double.NaN;
        }
        long others = hostBusyMicros - proxyCpuMicros - shardCpuMicros - clientCpuMicros;
        return Math.max(0, others) / (double) hostTotalMicros;
    }

    private double perQuery(long micros) {
        return queries() == 0 ? Double.NaN : (double) micros / queries();
    }

    private double perTransaction(long micros) {
        return result.transactions() == 0 ? Double.NaN : (double) micros / result.transactions();
    }
}
