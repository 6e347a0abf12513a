package io.cleave.bench.compare;

import io.cleave.bench.home.BenchHome;
import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.run.ConnectionSource;
import io.cleave.bench.tpcc.run.IntervalListener;
import io.cleave.bench.tpcc.run.IntervalSample;
import io.cleave.bench.tpcc.run.RunOptions;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.run.TpccDriver;
import io.cleave.bench.tpcc.txn.TransactionType;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * The TPC-C mix on all warehouses, one connection per terminal, server-side prepared statements.
 * Throughput is tpmC; the table's latency is new-order's (the charts show every type).
 */
public record TpccWorkload(int warehouses, int connections, Duration reportInterval) implements Workload {

    @Override
    public String name() {
        return "tpcc";
    }

    @Override
    public String unit() {
        return "tpmC";
    }

    @Override
    public WorkloadResult run(BenchHome home, Configuration c, Duration time, String label) throws Exception {
        if (c.access() == Access.RELAY || c.transport() != Transport.TCP) {
            throw new IllegalArgumentException("TPC-C runs over TCP, directly or through the proxy: not " + c.label());
        }
        JdbcTarget target = (c.access() == Access.DIRECT ? home.shard(0, TpccDataset.DATABASE)
            : c.account() == null ? home.proxy(TpccDataset.DATABASE)
            : home.proxy(TpccDataset.DATABASE, c.account().user(), c.account().password())).withServerPreparedStatements();
        RunOptions options = RunOptions.of(warehouses, connections, time).withReportInterval(reportInterval)
            .withLabel(label);
        RunResult r = TpccDriver.run(ConnectionSource.of(target), options, target.redactedUrl(), IntervalListener.NONE);
        long transactions = 0;
        for (TransactionType type : TransactionType.values()) {
            transactions += r.transaction(type).completed();
        }
        List<ThroughputPoint> series = new ArrayList<>();
        for (IntervalSample s : r.series()) {
            series.add(new ThroughputPoint(s.endSeconds(), s.tpmC()));
        }
        return new WorkloadResult(r.measuredSeconds(), transactions, -1, r.tpmC(),
            r.transaction(TransactionType.NEW_ORDER).latency(), series, r.totalErrors(), r);
    }
}
