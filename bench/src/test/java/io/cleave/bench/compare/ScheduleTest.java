package io.cleave.bench.compare;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleTest {
    private static final Configuration A = Configuration.direct();
    private static final Configuration B = Configuration.proxy(1);
    private static final Configuration C = Configuration.proxy(4);

    @Test
    void everyOtherRoundRunsInReverse() {
        List<Schedule.Slot> slots = Schedule.of(List.of(A, B, C), 3);
        assertThat(slots).extracting(s -> s.configuration()).containsExactly(A, B, C, C, B, A, A, B, C);
        assertThat(slots).extracting(Schedule.Slot::round).containsExactly(1, 1, 1, 2, 2, 2, 3, 3, 3);
    }

    @Test
    void atLeastOneRound() {
        assertThatThrownBy(() -> Schedule.of(List.of(A), 0)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void directMeansOneInstance() {
        assertThat(A.label()).isEqualTo("1 instance, direct");
        assertThat(Configuration.proxy(1).label()).isEqualTo("1 shard, proxy");
        assertThat(C.label()).isEqualTo("4 shards, proxy");
        assertThatThrownBy(() -> new Configuration("x", 2, Access.DIRECT)).hasMessageContaining("one instance");
    }
}
