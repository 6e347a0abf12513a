package io.cleave.bench.compare;

import static io.cleave.bench.compare.SampleComparisons.DIRECT;
import static io.cleave.bench.compare.SampleComparisons.PROXY_1;
import static io.cleave.bench.compare.SampleComparisons.PROXY_2;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import org.junit.jupiter.api.Test;

class ComparisonTest {
    private final Comparison c = SampleComparisons.comparison();

    @Test
    void ratiosPairEachRoundWithTheBaselinesSameRound() {
        Spread ratio = c.ratioToBaseline(PROXY_1);
        // rounds: 800/1000, 900/1010, 820/990
        assertThat(ratio.count()).isEqualTo(3);
        assertThat(ratio.min()).isCloseTo(0.8, within(1e-9));
        assertThat(ratio.median()).isCloseTo(820 / 990.0, within(1e-9));
        assertThat(ratio.max()).isCloseTo(900 / 1010.0, within(1e-9));
        assertThat(c.ratioToBaseline(DIRECT).median()).isEqualTo(1.0);
    }

    @Test
    void medianRoundIsTheRunWithTheMedianThroughput() {
        assertThat(c.medianRound(PROXY_2).round()).isEqualTo(1);
        assertThat(c.medianRound(DIRECT).result().throughput()).isEqualTo(1000);
    }

    @Test
    void cpuPerStatementAndPerTransaction() {
        Measurement proxied = c.of(PROXY_1).get(0);
        assertThat(proxied.proxyMicrosPerTransaction()).isEqualTo(100);
        assertThat(proxied.proxyMicrosPerQuery()).isEqualTo(10);
        assertThat(proxied.shardMicrosPerQuery()).isEqualTo(30);
        assertThat(proxied.shardMicrosPerTransaction()).isEqualTo(300);
        assertThat(proxied.shardStatementsPerQuery()).isCloseTo(1.1, within(1e-9));
        assertThat(proxied.qps()).isEqualTo(8000);
        assertThat(c.spread(PROXY_1, Measurement::proxyMicrosPerQuery).median()).isEqualTo(10);
        assertThat(proxied.otherCpuShare()).isCloseTo(0.10, within(1e-9));
    }

    @Test
    void otherCpuIsUnknownWhenTheHostWasNotMetered() {
        Measurement m = c.of(DIRECT).get(0);
        Measurement old = new Measurement(m.configuration(), m.shards(), m.access(), m.round(), m.startedAt(),
            m.loadBefore(), m.loadAfter(), m.result(), m.proxyCpuMicros(), m.shardCpuMicros(), m.clientStatements(),
            m.shardStatements(), 0, 0, 0);
        assertThat(old.otherCpuShare()).isNaN();
    }
}
