package io.cleave.manager.backup.throttle;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ByteRateTest {

    private static final long MB = 1024 * 1024;
    private static final long SECOND = 1_000_000_000L;

    @Test
    void theFirstWriteGoesAtOnceAndEachNextWaitsForTheBytesBeforeIt() {
        ByteRate rate = ByteRate.ofMegabytesPerSecond(2);
        assertThat(rate.reserve(MB, 0)).isZero();
        assertThat(rate.reserve(MB, 0)).as("1 MB already written at 2 MB/s").isEqualTo(SECOND / 2);
        assertThat(rate.reserve(2 * MB, 0)).isEqualTo(SECOND);
        assertThat(rate.reserve(MB, SECOND / 4)).as("paid until 2 s").isEqualTo(2 * SECOND - SECOND / 4);
    }

    @Test
    void writersTogetherNeverGoFasterThanTheRatePlusOneWrite() {
        ByteRate rate = new ByteRate(1_000_000);
        long[] writeAt = new long[300];
        // Three writers asking in turn, each as soon as its last write was made.
        long[] ready = new long[3];
        for (int i = 0; i < writeAt.length; i++) {
            int w = i % 3;
            writeAt[i] = ready[w] + rate.reserve(100_000, ready[w]);
            ready[w] = writeAt[i];
        }
        long span = writeAt[writeAt.length - 1] - writeAt[0];
        long written = 100_000L * (writeAt.length - 1); // the bytes of the writes after the first
        assertThat(written * SECOND).as("bytes written over the span, at 1 MB/s").isLessThanOrEqualTo(1_000_000L * span);
        assertThat(span).as("no writer waits longer than the rate asks").isEqualTo((writeAt.length - 1) * SECOND / 10);
    }

    @Test
    void idleTimeIsNotSavedForABurst() {
        ByteRate rate = new ByteRate(1_000_000);
        assertThat(rate.reserve(1_000_000, 0)).isZero();
        assertThat(rate.reserve(1_000_000, 10 * SECOND)).as("after 9 idle seconds").isZero();
        assertThat(rate.reserve(1_000_000, 10 * SECOND)).as("the next one waits for the one before").isEqualTo(SECOND);
    }

    @Test
    void aRateMustBePositive() {
        assertThatThrownBy(() -> new ByteRate(0)).hasMessageContaining("bounds nothing");
        assertThatThrownBy(() -> ByteRate.ofMegabytesPerSecond(-1)).isInstanceOf(IllegalArgumentException.class);
    }
}
