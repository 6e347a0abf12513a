package io.cleave.bench.home;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FreePortsTest {

    @Test
    void portsComeFromBelowTheEphemeralRangeOrAboveIt() {
        assertThat(FreePorts.usableRange(new int[] {32_768, 60_999})).containsExactly(10_000, 32_767);
        assertThat(FreePorts.usableRange(new int[] {1_024, 30_000})).containsExactly(30_001, 65_535);
        assertThat(FreePorts.usableRange(new int[] {1_024, 65_535})).containsExactly(10_000, 65_535);
    }

    @Test
    void noPortIsHandedOutTwice() {
        int a = FreePorts.range(4);
        int b = FreePorts.range(4);
        int c = FreePorts.one();
        assertThat(b < a || b > a + 3).as("%d after %d..%d", b, a, a + 3).isTrue();
        assertThat((c < a || c > a + 3) && (c < b || c > b + 3)).as("%d after %d and %d", c, a, b).isTrue();
    }
}
