package io.cleave.proxy.metrics;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class MicrometerProxyMetricsTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final MicrometerProxyMetrics metrics = new MicrometerProxyMetrics(registry, 2);

    private double transactions(String kind, String outcome) {
        return registry.get(MicrometerProxyMetrics.TRANSACTIONS).tag("kind", kind).tag("outcome", outcome).counter().count();
    }

    @Test
    void everyKindAndOutcomeIsRegisteredUpFrontAndCountedApart() {
        assertThat(registry.get(MicrometerProxyMetrics.TRANSACTIONS).counters()).hasSize(9);
        metrics.transactionEnded(TransactionKind.CROSS_SHARD, TransactionOutcome.COMMIT);
        metrics.transactionEnded(TransactionKind.CROSS_SHARD, TransactionOutcome.COMMIT);
        metrics.transactionEnded(TransactionKind.MULTI_SHARD_AUTOCOMMIT, TransactionOutcome.FAILED);
        metrics.transactionEnded(TransactionKind.SINGLE_SHARD, TransactionOutcome.ROLLBACK);
        assertThat(transactions("cross_shard", "commit")).isEqualTo(2);
        assertThat(transactions("multi_shard_autocommit", "failed")).isEqualTo(1);
        assertThat(transactions("single_shard", "rollback")).isEqualTo(1);
        assertThat(transactions("single_shard", "commit")).isZero();
    }

    @Test
    void distributedCommitsAreTimed() {
        metrics.distributedCommit(TimeUnit.MILLISECONDS.toNanos(3));
        var timer = registry.get(MicrometerProxyMetrics.DISTRIBUTED_COMMIT_LATENCY).timer();
        assertThat(timer.count()).isEqualTo(1);
        assertThat(timer.totalTime(TimeUnit.MILLISECONDS)).isEqualTo(3.0);
    }

    @Test
    void recoveryReportsWhatItLeftAndSettled() {
        metrics.inDoubtAfterRecovery(3);
        metrics.inDoubtAfterRecovery(1);
        metrics.branchSettled(true, true);
        metrics.branchSettled(true, true);
        metrics.branchSettled(false, false);
        assertThat(registry.get(MicrometerProxyMetrics.XA_IN_DOUBT).gauge().value()).isEqualTo(1.0);
        assertThat(registry.get(MicrometerProxyMetrics.XA_SETTLED).tag("by", "recovery").tag("decision", "commit")
                .counter().count()).isEqualTo(2);
        assertThat(registry.get(MicrometerProxyMetrics.XA_SETTLED).tag("by", "operator").tag("decision", "rollback")
                .counter().count()).isEqualTo(1);
        assertThat(registry.get(MicrometerProxyMetrics.XA_SETTLED).tag("by", "recovery").tag("decision", "rollback")
                .counter().count()).isZero();
    }
}
