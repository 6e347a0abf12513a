package io.cleave.proxy.cut;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Executor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ordering of cuts against cross-shard commits, on a clock the test moves: a window opens only
 * when no decision is in flight; its snapshots open on a shard once the branch commits decided
 * before it ended there; decisions wait for the snapshot on their coordinator's shard, branch
 * commits of transactions decided in the window for those on theirs; answers wait for the window;
 * neither side starves the other; limits end what a shard that does not answer would hold up.
 */
class CutWindowsTest {

    private static final long MS = 1_000_000L;
    private static final Executor NOW = Runnable::run;

    private long now = 1_000 * MS;
    private final RecordingMetrics metrics = new RecordingMetrics();
    private final FakeBranchCommits branchCommits = new FakeBranchCommits();
    private final CutWindows windows = new CutWindows(() -> now, metrics, branchCommits);
    private final List<String> log = new ArrayList<>();

    @Test
    void aCutWithoutDecisionsInFlightOpensAtOnceAndAnswersWaitUntilItsSnapshotsAreOpen() {
        Cut cut = new Cut();
        windows.request(NOW, new int[] {0, 1}, cut);
        assertThat(cut.window).as("nothing in flight: the window opens at once").isNotNull();
        assertThat(windows.windowOpen()).isTrue();

        assertThat(windows.holdAnswer(NOW, () -> log.add("answer"))).as("an answer waits while it is open").isTrue();
        assertThat(log).isEmpty();

        assertThat(cut.openAll()).as("the snapshots form a consistent cut").isTrue();
        assertThat(windows.windowOpen()).isFalse();
        assertThat(log).containsExactly("answer");
        assertThat(windows.holdAnswer(NOW, () -> log.add("late"))).as("no window: answers go at once").isFalse();
    }

    @Test
    void aCutWaitsForTheDecisionsInFlight() {
        CutWindows.Decision first = goes(0);
        CutWindows.Decision second = goes(1);
        Cut cut = new Cut();
        windows.request(NOW, new int[] {0, 1}, cut);
        assertThat(cut.window).as("two decisions are being committed").isNull();

        first.answered();
        assertThat(cut.window).isNull();
        second.answered();
        assertThat(cut.window).as("the last decision was answered").isNotNull();
        assertThat(metrics.cutWaits).hasSize(1);
    }

    @Test
    void theSnapshotsOpenTogetherOnceTheBranchCommitsDecidedBeforeTheWindowEndedOnItsShards() {
        branchCommits.begin(1);
        Cut cut = new Cut();
        windows.request(NOW, new int[] {0, 1}, cut);
        cut.window.whenReady(NOW, () -> log.add("open"));
        assertThat(log).as("shard 1 has a branch commit of a transaction decided before").isEmpty();
        assertThat(windows.holdAnswer(NOW, () -> log.add("never"))).as("no snapshot is opening yet: answers go").isFalse();

        branchCommits.begin(1);
        branchCommits.end(1);
        assertThat(log).as("the first branch commit ended; the one begun after the window does not count")
                .containsExactly("open");
        assertThat(windows.holdingAnswers()).as("answers wait while the snapshots open").isTrue();
        cut.openAll();
        assertThat(windows.holdingAnswers()).isFalse();
    }

    @Test
    void aDecisionEarlyInAWindowGoesAtOnceAndTheSnapshotsWaitForItsBranchCommits() {
        branchCommits.begin(1);
        Cut cut = new Cut();
        windows.request(NOW, new int[] {0, 1}, cut);
        cut.window.whenReady(NOW, () -> log.add("open"));

        CutWindows.Decision early = windows.decision(0);
        assertThat(early.go(NOW, () -> log.add("never"))).as("no snapshot is open yet: it need not wait").isTrue();
        branchCommits.end(1);
        assertThat(log).as("its decision is in flight").isEmpty();
        branchCommits.begin(1);
        early.answered();
        assertThat(log).as("and its branch commit on shard 1 is pending").isEmpty();
        assertThat(early.commitBranches(new int[] {1}, NOW, () -> log.add("never")))
                .as("it counts as decided before the snapshots: its branch commit goes").isTrue();
        branchCommits.end(1);
        assertThat(log).containsExactly("open");
        assertThat(cut.openAll()).isTrue();
    }

    @Test
    void aDecisionLaterThanTheCutsPriorityWaitsForTheSnapshotOnItsCoordinatorsShard() {
        windows.limits(new CutLimits(2 * MS, 50 * MS, 500 * MS, 10_000 * MS));
        branchCommits.begin(1);
        Cut cut = new Cut();
        windows.request(NOW, new int[] {0, 1}, cut);
        now += 3 * MS;
        CutWindows.Decision late = windows.decision(0);
        assertThat(late.go(NOW, () -> log.add("decision"))).isFalse();

        branchCommits.end(1);
        assertThat(log).isEmpty();
        cut.window.shardOpened(0);
        assertThat(log).containsExactly("decision");
    }

    @Test
    void aDecisionWaitsOnlyForTheSnapshotOnItsCoordinatorsShard() {
        Cut cut = new Cut();
        windows.request(NOW, new int[] {0, 1}, cut);

        CutWindows.Decision elsewhere = windows.decision(2);
        assertThat(elsewhere.go(NOW, () -> log.add("never"))).as("shard 2 is in no cut of the window").isTrue();
        CutWindows.Decision onZero = windows.decision(0);
        assertThat(onZero.go(NOW, () -> log.add("decision on 0"))).isFalse();
        assertThat(windows.heldCommits()).isEqualTo(1);

        now += 3 * MS;
        cut.window.shardOpened(1);
        assertThat(log).isEmpty();
        cut.window.shardOpened(0);
        assertThat(log).as("the snapshot on its coordinator's shard opened: the window need not close")
                .containsExactly("decision on 0");
        assertThat(windows.windowOpen()).isTrue();
        assertThat(metrics.commitHolds).containsExactly(3 * MS);
    }

    @Test
    void branchCommitsOfATransactionDecidedInsideAWindowWaitForTheSnapshotsOnTheirShards() {
        CutWindows.Decision before = goes(0);
        before.answered();
        Cut cut = new Cut();
        windows.request(NOW, new int[] {0, 1, 2}, cut);
        assertThat(before.commitBranches(new int[] {1}, NOW, () -> log.add("never")))
                .as("decided before the window: the window waits for it, not it for the window").isTrue();

        cut.window.shardOpened(0);
        CutWindows.Decision inside = goes(0);
        inside.answered();
        assertThat(inside.commitBranches(new int[] {1, 2}, NOW, () -> log.add("branches"))).isFalse();
        assertThat(windows.heldBranchCommits()).isEqualTo(1);
        now += 2 * MS;
        cut.window.shardOpened(1);
        assertThat(log).isEmpty();
        cut.window.shardOpened(2);
        assertThat(log).containsExactly("branches");
        assertThat(metrics.branchHolds).containsExactly(2 * MS);
    }

    @Test
    void cutsThatAskWhileAWindowIsOpenShareTheNextOne() {
        Cut first = new Cut();
        windows.request(NOW, new int[] {0, 1}, first);
        Cut second = new Cut();
        Cut third = new Cut();
        windows.request(NOW, new int[] {0, 1}, second);
        windows.request(NOW, new int[] {1, 2}, third);
        assertThat(second.window).as("a window takes no one after it opened").isNull();

        first.openAll();
        assertThat(second.window).isNotNull().isSameAs(third.window);
        second.openAll();
        assertThat(windows.windowOpen()).as("open until every cut in it has its snapshots").isTrue();
        third.openAll();
        assertThat(windows.windowOpen()).isFalse();
        assertThat(metrics.windows).containsExactly(1, 2);
    }

    @Test
    void whatAWindowHeldGoesBeforeTheNextWindowOpens() {
        Cut first = new Cut();
        windows.request(NOW, new int[] {0, 1}, first);
        CutWindows.Decision held = windows.decision(0);
        held.go(NOW, () -> log.add("decision"));
        Cut second = new Cut();
        windows.request(NOW, new int[] {0, 1}, second);

        first.window.opened();
        assertThat(log).containsExactly("decision");
        assertThat(second.window).as("the decision let go is in flight: the next window waits for it").isNull();
        held.answered();
        assertThat(second.window).isNotNull();
    }

    @Test
    void aCutThatWaitedPastItsPriorityHoldsNewDecisionsUntilItsWindowOpens() {
        windows.limits(new CutLimits(2 * MS, 50 * MS, 500 * MS, 10_000 * MS));
        CutWindows.Decision first = goes(0);
        Cut cut = new Cut();
        windows.request(NOW, new int[] {0, 1}, cut);

        now += MS;
        CutWindows.Decision second = goes(1);
        now += 2 * MS;
        CutWindows.Decision third = windows.decision(0);
        assertThat(third.go(NOW, () -> log.add("third"))).as("past the bound, the cut comes first").isFalse();
        CutWindows.Decision fourth = windows.decision(3);
        assertThat(fourth.go(NOW, () -> log.add("fourth"))).isFalse();

        first.answered();
        assertThat(cut.window).isNull();
        second.answered();
        assertThat(cut.window).as("the decisions in flight were answered").isNotNull();
        assertThat(log).as("one whose coordinator no cut covers goes when the window opens").containsExactly("fourth");
        cut.window.shardOpened(0);
        assertThat(log).containsExactly("fourth", "third");
    }

    @Test
    void aDecisionIsNotHeldLongerThanItsLimitWhileTheCutStillWaits() {
        windows.limits(new CutLimits(0, 50 * MS, 500 * MS, 10_000 * MS));
        goes(0);
        Cut cut = new Cut();
        windows.request(NOW, new int[] {0, 1}, cut);
        assertThat(windows.decision(1).go(NOW, () -> log.add("held"))).isFalse();

        now += 49 * MS;
        windows.tick();
        assertThat(log).isEmpty();
        now += 2 * MS;
        windows.tick();
        assertThat(log).as("a decision that is never answered holds no other beyond the limit").containsExactly("held");
        assertThat(windows.decisionsInFlight()).isEqualTo(2);
        assertThat(cut.window).isNull();
    }

    @Test
    void aWindowGivenUpReleasesEverythingAndItsLateCutIsNotConsistent() {
        Cut fast = new Cut();
        Cut slow = new Cut();
        CutWindows.Decision inFlight = goes(0);
        windows.request(NOW, new int[] {0, 1}, fast);
        windows.request(NOW, new int[] {0, 1}, slow);
        inFlight.answered();
        windows.decision(0).go(NOW, () -> log.add("decision"));
        windows.holdAnswer(NOW, () -> log.add("answer"));
        assertThat(fast.openAll()).isTrue();

        now += 501 * MS;
        windows.tick();
        assertThat(windows.windowOpen()).isFalse();
        assertThat(log).containsExactlyInAnyOrder("answer", "decision");
        assertThat(slow.window.opened()).as("its snapshots opened after commits were let go").isFalse();
    }

    @Test
    void aCutThatGetsNoWindowInTimeIsGivenUp() {
        goes(0);
        Cut cut = new Cut();
        windows.request(NOW, new int[] {0, 1}, cut);
        now += 10_001 * MS;
        windows.tick();
        assertThat(cut.gaveUp).contains("10000 ms");
        assertThat(windows.waitingCuts()).isZero();
    }

    @Test
    void aShardOwingADecidedBranchIsInNoCutUntilTheBranchIsSettled() {
        windows.owe(1, "x1");
        Cut over1 = new Cut();
        windows.request(NOW, new int[] {0, 1}, over1);
        assertThat(over1.gaveUp).contains("shard 1", "x1");
        Cut over0 = new Cut();
        windows.request(NOW, new int[] {0, 2}, over0);
        assertThat(over0.window).as("other shards are not held up").isNotNull();
        assertThat(over0.openAll()).isTrue();

        windows.settled(1, "x1");
        Cut again = new Cut();
        windows.request(NOW, new int[] {0, 1}, again);
        assertThat(again.window).isNotNull();
    }

    @Test
    void aBranchLeftOwingWhileAWindowIsOpenSpoilsTheCutsCoveringItsShard() {
        Cut cut = new Cut();
        windows.request(NOW, new int[] {0, 1}, cut);
        windows.owe(1, "x1");
        assertThat(cut.openAll()).isFalse();
        assertThat(cut.window.spoiled()).contains("shard 1", "x1");
    }

    @Test
    void aScanThatBeganAfterTheBranchWasOwedAndDoesNotFindItSettlesIt() {
        long before = windows.mark();
        windows.owe(1, "x1");
        windows.preparedOn(1, Set.of(), before);
        Cut cut = new Cut();
        windows.request(NOW, new int[] {1}, cut);
        assertThat(cut.gaveUp).as("the scan may have run before the branch was prepared").isNotNull();

        windows.preparedOn(1, Set.of("x1"), windows.mark());
        Cut still = new Cut();
        windows.request(NOW, new int[] {1}, still);
        assertThat(still.gaveUp).as("still prepared").isNotNull();

        windows.preparedOn(1, Set.of(), windows.mark());
        Cut settled = new Cut();
        windows.request(NOW, new int[] {1}, settled);
        assertThat(settled.window).isNotNull();
    }

    @Test
    void withCutsOffCommitsAreNeverHeld() {
        windows.enabled(false);
        Cut cut = new Cut();
        windows.request(NOW, new int[] {0, 1}, cut);
        assertThat(windows.decision(0).go(NOW, () -> log.add("never"))).isTrue();
    }

    /** A decision that goes at once. */
    private CutWindows.Decision goes(int coordinator) {
        CutWindows.Decision d = windows.decision(coordinator);
        assertThat(d.go(NOW, () -> log.add("never"))).isTrue();
        return d;
    }

    /** A cut as the window sees it: told when its window opens, or that it was given up. */
    private static final class Cut implements CutWindows.Opening {
        CutWindows.Window window;
        String gaveUp;

        @Override
        public void open(CutWindows.Window window) {
            this.window = window;
        }

        @Override
        public void gaveUp(String reason) {
            gaveUp = reason;
        }

        /** Every snapshot of the cut opens; returns whether the cut is consistent. */
        boolean openAll() {
            return window.opened();
        }
    }

    /** Branch commits per shard, begun and ended by the test, in the fence's way (tickets in order). */
    private static final class FakeBranchCommits implements BranchCommits {
        final Map<Integer, Long> issued = new HashMap<>();
        final Map<Integer, List<Long>> pending = new HashMap<>();
        final List<Object[]> waiters = new ArrayList<>();

        void begin(int shard) {
            long ticket = issued.merge(shard, 1L, Long::sum);
            pending.computeIfAbsent(shard, s -> new ArrayList<>()).add(ticket);
        }

        void end(int shard) {
            pending.get(shard).remove(0);
            for (Object[] w : new ArrayList<>(waiters)) {
                if ((int) w[0] == shard && oldest(shard) > (long) w[1]) {
                    waiters.remove(w);
                    ((Runnable) w[2]).run();
                }
            }
        }

        private long oldest(int shard) {
            List<Long> p = pending.getOrDefault(shard, List.of());
            return p.isEmpty() ? Long.MAX_VALUE : p.get(0);
        }

        @Override
        public long issued(int shard) {
            return issued.getOrDefault(shard, 0L);
        }

        @Override
        public boolean passes(int shard, long upTo, Executor executor, Runnable then) {
            if (oldest(shard) > upTo) {
                return true;
            }
            waiters.add(new Object[] {shard, upTo, then});
            return false;
        }
    }

    private static final class RecordingMetrics implements CutMetrics {
        final List<Long> cutWaits = new ArrayList<>();
        final List<Long> commitHolds = new ArrayList<>();
        final List<Long> branchHolds = new ArrayList<>();
        final List<Integer> windows = new ArrayList<>();

        @Override
        public void cutTaken(long waitNanos) {
            cutWaits.add(waitNanos);
        }

        @Override
        public void windowClosed(long nanos, int cuts) {
            windows.add(cuts);
        }

        @Override
        public void commitHeld(long nanos) {
            commitHolds.add(nanos);
        }

        @Override
        public void branchCommitHeld(long nanos) {
            branchHolds.add(nanos);
        }
    }
}
