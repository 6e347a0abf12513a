package io.cleave.manager.rebuild;

import io.cleave.manager.coordination.RejoinReport;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class RebuildDecisionTest {

    private static final Optional<RejoinReport> JOINED = Optional.of(new RejoinReport(true, 2, "http://b:6034",
            List.of("shard 0: replicates from 0-1000-7")));
    private static final Optional<RejoinReport> ERRANT = Optional.of(new RejoinReport(false, 2, "http://b:6034",
            List.of("shard 0: 0-1000-9 (the new primary has up to 0-1000-8)")));

    @Test
    void transactionsTheNewPrimaryLacksArePutAsideOnlyWhenARebuildIsAskedFor() {
        assertThat(RebuildDecision.of(false, ERRANT, false)).isEqualTo(RebuildDecision.REFUSED);
        assertThat(RebuildDecision.of(true, ERRANT, false)).isEqualTo(RebuildDecision.REBUILD);
    }

    @Test
    void aHomeHoldingNothingTheNewPrimaryLacksRejoinsWithoutARebuild() {
        assertThat(RebuildDecision.of(false, JOINED, false)).isEqualTo(RebuildDecision.JOINED);
        assertThat(RebuildDecision.of(true, JOINED, false)).isEqualTo(RebuildDecision.JOINED);
    }

    @Test
    void withoutADaemonOnlyARebuildCutShortGoesOn() {
        assertThat(RebuildDecision.of(true, Optional.empty(), true)).isEqualTo(RebuildDecision.RESUME);
        assertThat(RebuildDecision.of(false, Optional.empty(), true)).as("never without --rebuild")
                .isEqualTo(RebuildDecision.NEEDS_DAEMON);
        assertThat(RebuildDecision.of(true, Optional.empty(), false)).as("nothing checked the shards")
                .isEqualTo(RebuildDecision.NEEDS_DAEMON);
        assertThat(RebuildDecision.of(false, Optional.empty(), false)).isEqualTo(RebuildDecision.NEEDS_DAEMON);
    }
}
