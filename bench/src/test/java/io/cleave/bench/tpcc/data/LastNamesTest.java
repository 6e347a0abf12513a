package io.cleave.bench.tpcc.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Set;
import org.junit.jupiter.api.Test;

class LastNamesTest {

    @Test
    void specificationExamples() {
        assertThat(LastNames.of(371)).isEqualTo("PRICALLYOUGHT");
        assertThat(LastNames.of(40)).isEqualTo("BARPRESBAR");
    }

    @Test
    void everySyllableInItsPlace() {
        String[] syllables = {"BAR", "OUGHT", "ABLE", "PRI", "PRES", "ESE", "ANTI", "CALLY", "ATION", "EING"};
        for (int digit = 0; digit < 10; digit++) {
            String s = syllables[digit];
            assertThat(LastNames.of(digit * 111)).isEqualTo(s + s + s);
        }
        assertThat(LastNames.of(0)).isEqualTo("BARBARBAR");
        assertThat(LastNames.of(999)).isEqualTo("EINGEINGEING");
        assertThat(LastNames.of(123)).isEqualTo("OUGHTABLEPRI");
    }

    @Test
    void thousandDistinctNamesThatFitTheColumn() {
        Set<String> names = new HashSet<>();
        for (int n = 0; n < 1000; n++) {
            String name = LastNames.of(n);
            assertThat(name.length()).isLessThanOrEqualTo(16);
            names.add(name);
        }
        assertThat(names).hasSize(1000);
    }

    @Test
    void rejectsNumbersOutsideTheTable() {
        assertThatThrownBy(() -> LastNames.of(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> LastNames.of(1000)).isInstanceOf(IllegalArgumentException.class);
    }
}
