package io.cleave.bench.measure;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class ProcessCpuTest {

    @Test
    void userPlusSystemTicksAfterACommandNameWithSpacesAndParentheses() {
        String stat = "4242 (my (odd) name) S 1 4242 4242 0 -1 4194560 1234 0 5 0 731 269 3 4 20 0 31 0 "
            + "100 123456789 5000 18446744073709551615 1 1 0 0 0 0 0 4096 17922 0 0 0 17 1 0 0 0 0 0";
        assertThat(ProcessCpu.parseTicks(stat)).isEqualTo(731 + 269);
    }

    @Test
    void childrenAreTheWaitedForChildrensTicks() {
        String stat = "7 (java) S 1 7 7 0 -1 4194560 1 0 5 0 100 20 3000 400 20 0 31 0 100 1 1";
        assertThat(ProcessCpu.parseTicksWithChildren(stat)).isEqualTo(100 + 20 + 3000 + 400);
    }

    @Test
    void hostCpuCountsBusyAndIdleTimeOfAllCores() {
        HostCpu before = HostCpu.parse("cpu  100 5 50 1000 20 3 2 10 0 0");
        HostCpu after = HostCpu.parse("cpu  300 5 90 1800 30 3 2 10 0 0");
        HostCpu delta = after.minus(before);
        assertThat(delta.busyMicros()).isEqualTo(ProcessCpu.ticksToMicros(240));
        assertThat(delta.totalMicros()).isEqualTo(ProcessCpu.ticksToMicros(240 + 800 + 10));
        assertThat(HostCpu.read().totalMicros()).isPositive();
    }

    @Test
    void aTruncatedLineIsRefused() {
        assertThatThrownBy(() -> ProcessCpu.parseTicks("12 (x) S 1 2 3")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> ProcessCpu.parseTicks("no parenthesis")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void thisProcessHasUsedSomeCpuAndTheCounterOnlyGrows() {
        long pid = ProcessHandle.current().pid();
        long before = ProcessCpu.micros(pid);
        long spin = 0;
        for (long deadline = System.nanoTime() + 50_000_000L; System.nanoTime() < deadline; ) {
            spin++;
        }
        assertThat(spin).isPositive();
        assertThat(before).isPositive();
        assertThat(ProcessCpu.micros(pid)).isGreaterThanOrEqualTo(before);
    }

    @Test
    void aGoneProcessIsNamed() {
        assertThatThrownBy(() -> ProcessCpu.micros(Integer.MAX_VALUE)).hasMessageContaining("is gone");
    }

    @Test
    void loadAverageParsesProcLoadavg() {
        assertThat(LoadAverage.parse("1.52 0.98 0.41 3/512 12345\n")).isEqualTo(new LoadAverage(1.52, 0.98, 0.41));
        assertThat(LoadAverage.UNKNOWN.toString()).isEqualTo("unknown");
        assertThat(new LoadAverage(1.5, 2, 3).toString()).isEqualTo("1.50 2.00 3.00");
    }
}
