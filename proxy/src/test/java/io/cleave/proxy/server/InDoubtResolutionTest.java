package io.cleave.proxy.server;

import io.cleave.proxy.server.XaRecovery.Decision;
import io.cleave.proxy.server.XaRecovery.InDoubtBranch;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class InDoubtResolutionTest {

    private static final String XID = "cleave:0:18c2-1a:7:3";

    private static List<InDoubtBranch> branches(Decision decision) {
        return List.of(new InDoubtBranch(1, XID, 0, decision), new InDoubtBranch(2, XID, 0, decision));
    }

    @Test
    void anUnknownXidIsNotFound() {
        InDoubtResolution r = InDoubtResolution.refusal(XID, List.of(), true, true);
        assertThat(r.outcome()).isEqualTo(InDoubtResolution.Outcome.UNKNOWN_XID);
        assertThat(r.message()).isEqualTo("transaction " + XID + " has no prepared branch on any reachable shard:"
                + " it is settled already, or the id is wrong");
        assertThat(r.settled()).isEmpty();
    }

    @Test
    void followingTheRecordedDecisionGoesAhead() {
        assertThat(InDoubtResolution.refusal(XID, branches(Decision.COMMIT), true, false)).isNull();
        assertThat(InDoubtResolution.refusal(XID, branches(Decision.ROLLBACK), false, false)).isNull();
    }

    @Test
    void rollingBackARecordedCommitIsRefusedUnlessForced() {
        InDoubtResolution r = InDoubtResolution.refusal(XID, branches(Decision.COMMIT), false, false);
        assertThat(r.outcome()).isEqualTo(InDoubtResolution.Outcome.REFUSED);
        assertThat(r.commit()).isFalse();
        assertThat(r.message()).isEqualTo("coordinator shard 0 recorded the commit of " + XID + ": its other shards"
                + " committed, so rolling back the branches on shards [1, 2] would leave the transaction half applied (force overrides this refusal)");
        assertThat(InDoubtResolution.refusal(XID, branches(Decision.COMMIT), false, true)).isNull();
        assertThat(InDoubtResolution.againstDecision(branches(Decision.COMMIT), false)).isTrue();
    }

    @Test
    void committingWithoutADecisionIsRefusedUnlessForced() {
        InDoubtResolution r = InDoubtResolution.refusal(XID, branches(Decision.ROLLBACK), true, false);
        assertThat(r.outcome()).isEqualTo(InDoubtResolution.Outcome.REFUSED);
        assertThat(r.message()).startsWith("coordinator shard 0 has no commit decision for " + XID)
                .endsWith("committing the branches on shards [1, 2] would apply only part of it (force overrides this refusal)");
        assertThat(InDoubtResolution.refusal(XID, branches(Decision.ROLLBACK), true, true)).isNull();
        assertThat(InDoubtResolution.againstDecision(branches(Decision.ROLLBACK), true)).isTrue();
    }

    @Test
    void anUnreachableCoordinatorLeavesTheChoiceToTheOperator() {
        assertThat(InDoubtResolution.refusal(XID, branches(Decision.COORDINATOR_UNREACHABLE), true, false)).isNull();
        assertThat(InDoubtResolution.refusal(XID, branches(Decision.COORDINATOR_UNREACHABLE), false, false)).isNull();
        assertThat(InDoubtResolution.againstDecision(branches(Decision.COORDINATOR_UNREACHABLE), true)).isFalse();
        assertThat(InDoubtResolution.againstDecision(branches(Decision.COORDINATOR_UNREACHABLE), false)).isFalse();
    }

    @Test
    void aCommitThisProxyIsRunningIsLeftAloneEvenForced() {
        InDoubtResolution r = InDoubtResolution.refusal(XID, branches(Decision.COMMIT_RUNNING), false, true);
        assertThat(r.outcome()).isEqualTo(InDoubtResolution.Outcome.REFUSED);
        assertThat(r.message()).contains("is being committed by the proxy right now");
    }

    @Test
    void theCoordinatorIsReadFromTheXid() {
        assertThat(XaRecovery.coordinatorOf("cleave:2:18c2-1a:7:3")).isEqualTo(2);
        assertThat(XaRecovery.coordinatorOf("cleave:12:x")).isEqualTo(12);
        assertThat(XaRecovery.coordinatorOf("cleave:x:1")).isEqualTo(-1);
        assertThat(XaRecovery.coordinatorOf("cleave:3")).isEqualTo(-1);
    }
}
