package io.cleave.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FaultScheduleTest {

    static ChaosOptions options(long seed, long durationMillis, String faults) {
        return new ChaosOptions(seed, durationMillis, 5, List.of(faults.split(",")), 4, 2, 6, 4, 25, 20, 2000, 4, 2, 2, 2,
            false, "1G");
    }

    @Test
    void theSameSeedDrawsTheSameScheduleAndAnotherSeedAnother() {
        FaultSchedule a = FaultSchedule.generate(options(42, 30 * 60_000, "all"));
        FaultSchedule b = FaultSchedule.generate(options(42, 30 * 60_000, "all"));
        FaultSchedule c = FaultSchedule.generate(options(43, 30 * 60_000, "all"));
        assertThat(a.faults()).isEqualTo(b.faults());
        assertThat(a.faults()).isNotEqualTo(c.faults());
    }

    @Test
    void faultsComeInOrderWithinTheDurationAtAboutTheRateAndOfEveryKindAsked() {
        FaultSchedule s = FaultSchedule.generate(options(7, 30 * 60_000, "all"));
        // 5 a minute over 30 minutes, gaps uniform around the mean.
        assertThat(s.faults()).hasSizeBetween(120, 180);
        long previous = 0;
        for (int i = 0; i < s.faults().size(); i++) {
            ScheduledFault f = s.faults().get(i);
            assertThat(f.index()).isEqualTo(i + 1);
            assertThat(f.atMillis()).isGreaterThan(previous).isLessThanOrEqualTo(30 * 60_000);
            previous = f.atMillis();
        }
        assertThat(s.faults().get(0).atMillis()).isGreaterThan(FaultSchedule.FIRST_FAULT_AFTER_MILLIS);
        assertThat(s.faults().stream().map(ScheduledFault::kind).distinct()).containsExactlyInAnyOrder(FaultKind.values());
    }

    @Test
    void onlyTheKindsAskedForAreDrawn() {
        FaultSchedule s = FaultSchedule.generate(options(7, 10 * 60_000, "move,shard-kill"));
        assertThat(s.faults()).isNotEmpty();
        assertThat(s.faults()).allMatch(f -> f.kind() == FaultKind.MOVE || f.kind() == FaultKind.SHARD_KILL);
    }

    @Test
    void aScheduleReadBackIsTheOneWritten(@TempDir Path dir) throws Exception {
        FaultSchedule s = FaultSchedule.generate(options(9, 5 * 60_000, "all,-scale-down"));
        s.write(dir);
        FaultSchedule read = FaultSchedule.read(dir.resolve(FaultSchedule.FILE));
        assertThat(read).isEqualTo(s);
        assertThat(read.describe()).startsWith("seed 9: " + s.faults().size() + " faults over 300 s");
    }

    @Test
    void faultListsTakeAllAndExceptions() {
        assertThat(FaultKind.parseList("all")).isEqualTo(EnumSet.allOf(FaultKind.class));
        Set<FaultKind> without = FaultKind.parseList("all,-scale-down,-scale-up");
        assertThat(without).doesNotContain(FaultKind.SCALE_DOWN, FaultKind.SCALE_UP).contains(FaultKind.MOVE);
        assertThat(FaultKind.parseList("-daemon-kill")).hasSize(FaultKind.values().length - 1);
        assertThat(FaultKind.parseList("client-vanish-commit")).containsExactly(FaultKind.CLIENT_VANISH_COMMIT);
        assertThatThrownBy(() -> FaultKind.parseList("moves")).hasMessageContaining("unknown fault 'moves'");
        assertThatThrownBy(() -> FaultKind.parseList("move,-move")).hasMessageContaining("no fault kind left");
    }

    @Test
    void aFaultsPicksStayInRangeAndDifferBySalt() {
        ScheduledFault f = new ScheduledFault(1, 1000, FaultKind.MOVE, -1234567890123L);
        int[] seen = new int[7];
        for (int salt = 0; salt < 700; salt++) {
            int p = f.pick(salt, 7);
            assertThat(p).isBetween(0, 6);
            seen[p]++;
        }
        assertThat(java.util.Arrays.stream(seen).min().getAsInt()).isGreaterThan(50);
        assertThat(f.pick(3, 7)).isEqualTo(new ScheduledFault(2, 5, FaultKind.MOVE, -1234567890123L).pick(3, 7));
    }
}
