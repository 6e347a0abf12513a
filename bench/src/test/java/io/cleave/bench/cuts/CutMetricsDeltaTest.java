package io.cleave.bench.cuts;

import io.cleave.bench.tpcc.run.LatencySummary;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class CutMetricsDeltaTest {

    private static final String BEFORE = """
        # TYPE cleave_proxy_cuts_total counter
        cleave_proxy_cuts_total{outcome="taken"} 10
        cleave_proxy_cut_window_seconds_count 4
        cleave_proxy_cut_window_seconds_sum 0.002
        cleave_proxy_cut_commit_wait_seconds_bucket{le="0.001"} 2
        cleave_proxy_cut_commit_wait_seconds_bucket{le="0.002"} 3
        cleave_proxy_cut_commit_wait_seconds_bucket{le="0.01"} 3
        cleave_proxy_cut_commit_wait_seconds_bucket{le="+Inf"} 3
        cleave_proxy_cut_commit_wait_seconds_count 3
        cleave_proxy_cut_commit_wait_seconds_max 0.0015
        cleave_proxy_cut_held_answers_total 7
        """;

    private static final String AFTER = """
        cleave_proxy_cuts_total{outcome="taken"} 110
        cleave_proxy_cuts_total{outcome="window_expired"} 1
        cleave_proxy_cut_window_seconds_count 24
        cleave_proxy_cut_window_seconds_sum 0.012
        cleave_proxy_cut_commit_wait_seconds_bucket{le="0.001"} 12
        cleave_proxy_cut_commit_wait_seconds_bucket{le="0.002"} 13
        cleave_proxy_cut_commit_wait_seconds_bucket{le="0.01"} 14
        cleave_proxy_cut_commit_wait_seconds_bucket{le="+Inf"} 14
        cleave_proxy_cut_commit_wait_seconds_count 14
        cleave_proxy_cut_commit_wait_seconds_max 0.009
        cleave_proxy_cut_held_answers_total 27
        """;

    @Test
    void countsWhatTheRunAddedAndBoundsItsLongestWaitByItsOwnBuckets() {
        CutMetricsDelta d = CutMetricsDelta.between(BEFORE, AFTER);

        assertThat(d.cuts()).isEqualTo(100);
        assertThat(d.windows()).isEqualTo(20);
        assertThat(d.windowMeanMillis()).isCloseTo(0.5, within(1e-9));
        assertThat(d.commitWaits()).isEqualTo(11);
        // 10 waits up to 1 ms and one between 2 and 10 ms in this run: at most 10 ms.
        assertThat(d.longestCommitWaitMillis()).isCloseTo(10.0, within(1e-9));
        assertThat(d.heldAnswers()).isEqualTo(20);
    }

    @Test
    void aHomeWithoutCutsCountsNothing() {
        CutMetricsDelta d = CutMetricsDelta.between("cleave_proxy_queries_total 5\n", "cleave_proxy_queries_total 9\n");
        assertThat(d.cuts()).isZero();
        assertThat(d.longestCommitWaitMillis()).isZero();
        assertThat(d.windowMeanMillis()).isZero();
    }

    @Test
    void theCostTableComparesOnWithOffWithinEachRound() {
        LatencySummary fast = new LatencySummary(1.0, 0, 0, 2.0, 3, 1);
        LatencySummary slow = new LatencySummary(1.5, 0, 0, 3.0, 4, 1.5);
        CutMetricsDelta none = new CutMetricsDelta(0, 0, 0, 0, 0, 0, 0);
        CutMetricsDelta some = new CutMetricsDelta(90, 30, 0.2, 4, 0.5, 1.0, 12);
        List<CutRun> runs = List.of(
            new CutRun("off", "sums", 1, 10, 1000, 7, fast, 0, 0, LatencySummary.EMPTY, none),
            new CutRun("on", "sums", 1, 10, 900, 0, slow, 0, 0, LatencySummary.EMPTY, some));

        String table = CutCostTable.render(runs, "off", "on");

        assertThat(table).contains("| sums | off | 100 | 1.00 / 2.00 | 7 of 1000 |");
        assertThat(table).contains("| sums | on | 90 | 1.50 / 3.00 | 0 of 900 |");
        assertThat(table).contains("| sums | 1.50 | 1.50 | +0.500 | +1.000 | - | - |");
    }
}
