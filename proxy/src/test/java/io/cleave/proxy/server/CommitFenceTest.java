package io.cleave.proxy.server;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class CommitFenceTest {

    private final CommitFence fence = new CommitFence(2);
    private final List<String> ran = new ArrayList<>();

    @Test
    void aShardWithNothingPendingPassesAtOnce() {
        fence.pending(1);

        assertThat(fence.passes(0, Runnable::run, () -> ran.add("never"))).isTrue();
        assertThat(ran).isEmpty();
    }

    @Test
    void aStatementWaitsForEveryBranchCommitPendingWhenItCame() {
        long first = fence.pending(0);
        long second = fence.pending(0);

        assertThat(fence.passes(0, Runnable::run, () -> ran.add("statement"))).isFalse();
        fence.done(0, second);
        assertThat(ran).as("the first branch commit still runs").isEmpty();
        fence.done(0, first);
        assertThat(ran).containsExactly("statement");
        assertThat(fence.pendingOn(0)).isZero();
        assertThat(fence.passes(0, Runnable::run, () -> ran.add("never"))).isTrue();
    }

    @Test
    void branchCommitsPendingAfterAStatementCameDoNotHoldItUp() {
        long first = fence.pending(0);
        fence.passes(0, Runnable::run, () -> ran.add("early"));
        long later = fence.pending(0);
        fence.passes(0, Runnable::run, () -> ran.add("late"));

        fence.done(0, first);
        assertThat(ran).containsExactly("early");
        fence.done(0, later);
        assertThat(ran).containsExactly("early", "late");
    }

    @Test
    void aWaiterWithAnEarlierBoundIsNotHeldUpByOnesThatCameBeforeIt() {
        long first = fence.pending(0);
        long bound = fence.issued(0);
        long second = fence.pending(0);
        fence.passes(0, Runnable::run, () -> ran.add("statement"));
        // A cut's window took its bound before the second branch commit began, and waits after the statement.
        assertThat(fence.passes(0, bound, Runnable::run, () -> ran.add("window"))).isFalse();

        fence.done(0, first);
        assertThat(ran).as("the window waits for the first branch commit only").containsExactly("window");
        fence.done(0, second);
        assertThat(ran).containsExactly("window", "statement");
    }

    @Test
    void aTicketEndsOnce() {
        long ticket = fence.pending(0);
        fence.done(0, ticket);
        fence.done(0, ticket);

        assertThat(fence.pendingOn(0)).isZero();
    }
}
