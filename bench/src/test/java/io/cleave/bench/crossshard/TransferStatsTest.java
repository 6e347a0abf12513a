package io.cleave.bench.crossshard;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TransferStatsTest {
    private static final Transfer TWO = new Transfer(List.of(1L, 1_000_000_001L), List.of(5L, -5L));

    @Test
    void latenciesOfBothThreadsAreMergedIntoPercentilesInMilliseconds() {
        TransferStats a = new TransferStats();
        TransferStats b = new TransferStats();
        // 100 transactions of 1..100 ms whose COMMIT took a tenth of that, split over two threads.
        for (int i = 1; i <= 100; i++) {
            (i % 2 == 0 ? a : b).committed(TWO, i * 1_000_000L, i * 100_000L);
        }
        a.add(b);
        TransferResult r = a.result(2, 10.0);
        assertThat(r.committed()).isEqualTo(100);
        assertThat(r.tps()).isEqualTo(10.0);
        assertThat(r.transaction().p50()).isCloseTo(50.0, within(0.1));
        assertThat(r.transaction().p99()).isCloseTo(99.0, within(0.1));
        assertThat(r.commit().p50()).isCloseTo(5.0, within(0.01));
        assertThat(r.commit().max()).isCloseTo(10.0, within(0.01));
        assertThat(r.committedUpdates()).isEqualTo(200);
        assertThat(r.failed()).isZero();
    }

    @Test
    void failuresAreCountedByCodeAndAFailedCommitsUpdatesAreUncertain() {
        TransferStats a = new TransferStats();
        a.failed(TWO, "1213", false);
        a.failed(TWO, "1213", false);
        TransferStats b = new TransferStats();
        b.failed(TWO, "2013", true);
        b.committed(TWO, 3_000_000, 1_000_000);
        a.add(b);
        TransferResult r = a.result(2, 1.0);
        assertThat(r.failed()).isEqualTo(3);
        assertThat(r.errorsByCode()).isEqualTo(Map.of("1213", 2L, "2013", 1L));
        assertThat(r.committedUpdates()).isEqualTo(2);
        assertThat(r.uncertainUpdates()).isEqualTo(2);
    }

    @Test
    void aSubMicrosecondCommitStillCountsAndNothingMeasuredIsZero() {
        TransferStats a = new TransferStats();
        assertThat(a.result(1, 5).tps()).isZero();
        a.committed(new Transfer(List.of(1L), List.of(0L)), 2_000, 300);
        assertThat(a.result(1, 5).commit().p50()).isEqualTo(0.001);
    }
}
