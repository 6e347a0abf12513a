package io.cleave.proxy.server;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class InDoubtRegistryTest {

    private static final String MINE = "cleave:0:18c2f0a1b2c-00000000abcd:7:12";
    private static final String FORWARDED = "cleave:1:18c2f0a9999-0000000fedcb:3:4";
    private static final String LEFT_BY_A_DEAD_RUN = "cleave:0:18c2e000000-000000000001:1:1";

    @Test
    void onlyCommitsRunningHereAreLeftAloneByDefault() {
        InDoubtRegistry r = new InDoubtRegistry();
        r.started(MINE);
        assertThat(r.isRunning(MINE)).isTrue();
        assertThat(r.isRunning(FORWARDED)).isFalse();
        r.finished(MINE);
        assertThat(r.isRunning(MINE)).isFalse();
    }

    @Test
    void branchesOfAnotherLiveProxyOnTheseShardsAreItsOwn() {
        InDoubtRegistry r = new InDoubtRegistry();
        r.otherProxy("18c2f0a9999-0000000fedcb");
        assertThat(r.isRunning(FORWARDED)).isTrue();
        assertThat(r.isRunning(LEFT_BY_A_DEAD_RUN)).as("an earlier run's branch is recovery's").isFalse();
        assertThat(r.isRunning("cleave:1:18c2f0a9999-0000000fedcbX:3:4")).as("another run id that starts alike").isFalse();
    }

    @Test
    void theBranchesOfAProxyWhoseHomeWasLostAreRecoverysAfterAFailover() {
        InDoubtRegistry r = new InDoubtRegistry();
        r.otherProxy("18c2f0a9999-0000000fedcb");
        r.forgetOtherProxies();
        assertThat(r.isRunning(FORWARDED)).isFalse();
    }

    @Test
    void aForwardingProxySettlesOnlyItsOwnRunsBranches() {
        InDoubtRegistry r = new InDoubtRegistry();
        r.onlyRun("18c2f0a1b2c-00000000abcd");
        assertThat(r.isRunning(MINE)).as("its own branch, not running now: recovery's").isFalse();
        assertThat(r.isRunning(FORWARDED)).as("the other home's proxy's").isTrue();
        assertThat(r.isRunning(LEFT_BY_A_DEAD_RUN)).as("left to the primary's own proxy").isTrue();
    }
}
