package io.cleave.bench.tpcc.data;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class NURandConstantsTest {

    @Test
    void deltaRule() {
        assertThat(NURandConstants.validRunDelta(0, 65)).isTrue();
        assertThat(NURandConstants.validRunDelta(0, 119)).isTrue();
        assertThat(NURandConstants.validRunDelta(200, 81)).isTrue();
        assertThat(NURandConstants.validRunDelta(0, 64)).isFalse();
        assertThat(NURandConstants.validRunDelta(0, 120)).isFalse();
        assertThat(NURandConstants.validRunDelta(10, 106)).isFalse();
        assertThat(NURandConstants.validRunDelta(10, 122)).isFalse();
        assertThat(NURandConstants.validRunDelta(50, 50)).isFalse();
    }

    @Test
    void runConstantsAlwaysObeyTheDeltaRule() {
        TpccRandom random = new TpccRandom(3);
        for (long seed = 0; seed < 500; seed++) {
            NURandConstants load = NURandConstants.forLoad(seed);
            NURandConstants run = NURandConstants.forRun(load, random);
            assertThat(NURandConstants.validRunDelta(load.cLast(), run.cLast())).isTrue();
            assertThat(run.cId()).isBetween(0, 1023);
            assertThat(run.olIid()).isBetween(0, 8191);
        }
    }

    @Test
    void loadConstantsFollowFromTheSeed() {
        assertThat(NURandConstants.forLoad(17)).isEqualTo(NURandConstants.forLoad(17));
    }

    @Test
    void rejectsConstantsOutOfRange() {
        assertThatThrownBy(() -> new NURandConstants(256, 0, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NURandConstants(0, 1024, 0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new NURandConstants(0, 0, 8192)).isInstanceOf(IllegalArgumentException.class);
    }
}
