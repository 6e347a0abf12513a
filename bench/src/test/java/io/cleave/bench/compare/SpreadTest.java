package io.cleave.bench.compare;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class SpreadTest {

    @Test
    void medianOfAnOddAndAnEvenCount() {
        assertThat(Spread.of(List.of(3.0, 1.0, 2.0))).isEqualTo(new Spread(2, 1, 3, 3));
        assertThat(Spread.of(List.of(4.0, 1.0, 3.0, 2.0))).isEqualTo(new Spread(2.5, 1, 4, 4));
        assertThat(Spread.of(List.of()).count()).isZero();
    }

    @Test
    void formatsTheMedianWithItsRange() {
        assertThat(Spread.of(List.of(0.81, 0.85, 0.8)).format("%.2f")).isEqualTo("0.81 (0.80–0.85)");
        assertThat(Spread.of(List.of(12.0)).format("%.0f")).isEqualTo("12");
        assertThat(Spread.of(List.of()).format("%.0f")).isEqualTo("-");
    }
}
