package io.cleave.proxy.cut;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Executor;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ordering of cuts against commit phases, on a clock the test moves: a window opens only when
 * no phase is in flight and holds new phases until it closes; answers wait for it; neither side
 * starves the other; limits end what a shard that does not answer would hold up.
 */
class CutWindowsTest {

    private static final long MS = 1_000_000L;
    private static final Executor NOW = Runnable::run;

    private long now = 1_000 * MS;
    private final RecordingMetrics metrics = new RecordingMetrics();
    private final CutWindows windows = new CutWindows(() -> now, metrics);
    private final List<String> log = new ArrayList<>();

    @Test
    void aCutWithoutCommitsInFlightOpensAtOnceAndAnswersWaitUntilItsSnapshotsAreOpen() {
        Cut cut = new Cut("r1");
        windows.request(NOW, new int[] {0, 1}, cut);
        assertThat(cut.window).as("no phase in flight: the window opens at once").isNotNull();
        assertThat(windows.windowOpen()).isTrue();

        assertThat(windows.holdAnswer(NOW, () -> log.add("answer"))).as("an answer waits while it is open").isTrue();
        assertThat(log).isEmpty();

        assertThat(cut.window.opened()).as("the snapshots form a consistent cut").isTrue();
        assertThat(windows.windowOpen()).isFalse();
        assertThat(log).containsExactly("answer");
        assertThat(windows.holdAnswer(NOW, () -> log.add("late"))).as("no window: answers go at once").isFalse();
    }

    @Test
    void aCutWaitsForTheCommitPhasesInFlight() {
        assertThat(windows.enterPhase(NOW, () -> log.add("never"))).isTrue();
        assertThat(windows.enterPhase(NOW, () -> log.add("never"))).isTrue();
        Cut cut = new Cut("r1");
        windows.request(NOW, new int[] {0, 1}, cut);
        assertThat(cut.window).as("two commits are part-way visible").isNull();

        windows.leavePhase();
        assertThat(cut.window).isNull();
        windows.leavePhase();
        assertThat(cut.window).as("the last phase ended").isNotNull();
        assertThat(metrics.cutWaits).hasSize(1);
    }

    @Test
    void aCommitPhaseWaitsForAnOpenWindowAndStartsWhenItCloses() {
        Cut cut = new Cut("r1");
        windows.request(NOW, new int[] {0, 1}, cut);

        assertThat(windows.enterPhase(NOW, () -> log.add("decision"))).as("the window is open").isFalse();
        assertThat(windows.heldCommits()).isEqualTo(1);
        now += 3 * MS;
        cut.window.opened();

        assertThat(log).containsExactly("decision");
        assertThat(windows.phasesInFlight()).as("its phase began when it was let go").isEqualTo(1);
        assertThat(metrics.commitHolds).containsExactly(3 * MS);
    }

    @Test
    void cutsThatAskWhileAWindowIsOpenShareTheNextOne() {
        Cut first = new Cut("r1");
        windows.request(NOW, new int[] {0, 1}, first);
        Cut second = new Cut("r2");
        Cut third = new Cut("r3");
        windows.request(NOW, new int[] {0, 1}, second);
        windows.request(NOW, new int[] {0, 1}, third);
        assertThat(second.window).as("a window takes no one after it opened").isNull();

        first.window.opened();
        assertThat(second.window).isNotNull().isSameAs(third.window);
        second.window.opened();
        assertThat(windows.windowOpen()).as("open until every cut in it has its snapshots").isTrue();
        third.window.opened();
        assertThat(windows.windowOpen()).isFalse();
        assertThat(metrics.windows).containsExactly(1, 2);
    }

    @Test
    void commitsHeldByAWindowGoBeforeTheNextWindowOpens() {
        Cut first = new Cut("r1");
        windows.request(NOW, new int[] {0, 1}, first);
        windows.enterPhase(NOW, () -> log.add("decision"));
        Cut second = new Cut("r2");
        windows.request(NOW, new int[] {0, 1}, second);

        first.window.opened();
        assertThat(log).containsExactly("decision");
        assertThat(second.window).as("the commit let go is in flight: the next window waits for it").isNull();
        windows.leavePhase();
        assertThat(second.window).isNotNull();
    }

    @Test
    void aCutThatWaitedPastItsPriorityHoldsNewCommitsUntilItsWindowClosed() {
        windows.limits(new CutWindows.Limits(2 * MS, 50 * MS, 500 * MS, 10_000 * MS));
        windows.enterPhase(NOW, () -> log.add("never"));
        Cut cut = new Cut("r1");
        windows.request(NOW, new int[] {0, 1}, cut);

        now += MS;
        assertThat(windows.enterPhase(NOW, () -> log.add("never"))).as("within the bound commits go on").isTrue();
        now += 2 * MS;
        assertThat(windows.enterPhase(NOW, () -> log.add("held"))).as("past it, the cut comes first").isFalse();

        windows.leavePhase();
        assertThat(cut.window).isNull();
        windows.leavePhase();
        assertThat(cut.window).as("the phases in flight drained").isNotNull();
        assertThat(log).isEmpty();
        cut.window.opened();
        assertThat(log).containsExactly("held");
    }

    @Test
    void aCommitIsNotHeldLongerThanItsLimitWhileTheCutStillWaits() {
        windows.limits(new CutWindows.Limits(0, 50 * MS, 500 * MS, 10_000 * MS));
        windows.enterPhase(NOW, () -> log.add("never"));
        Cut cut = new Cut("r1");
        windows.request(NOW, new int[] {0, 1}, cut);
        assertThat(windows.enterPhase(NOW, () -> log.add("held"))).isFalse();

        now += 49 * MS;
        windows.tick();
        assertThat(log).isEmpty();
        now += 2 * MS;
        windows.tick();
        assertThat(log).as("a phase that does not end holds no commit beyond the limit").containsExactly("held");
        assertThat(windows.phasesInFlight()).isEqualTo(2);
        assertThat(cut.window).isNull();
    }

    @Test
    void aWindowGivenUpReleasesEverythingAndItsLateCutIsNotConsistent() {
        Cut fast = new Cut("fast");
        Cut slow = new Cut("slow");
        windows.enterPhase(NOW, () -> log.add("never"));
        windows.request(NOW, new int[] {0, 1}, fast);
        windows.request(NOW, new int[] {0, 1}, slow);
        windows.leavePhase();
        windows.enterPhase(NOW, () -> log.add("decision"));
        windows.holdAnswer(NOW, () -> log.add("answer"));
        assertThat(fast.window.opened()).isTrue();

        now += 501 * MS;
        windows.tick();
        assertThat(windows.windowOpen()).isFalse();
        assertThat(log).containsExactly("answer", "decision");
        assertThat(slow.window.opened()).as("its snapshots opened after commits were let go").isFalse();
    }

    @Test
    void aCutThatGetsNoWindowInTimeIsGivenUp() {
        windows.enterPhase(NOW, () -> log.add("never"));
        Cut cut = new Cut("r1");
        windows.request(NOW, new int[] {0, 1}, cut);
        now += 10_001 * MS;
        windows.tick();
        assertThat(cut.gaveUp).contains("10000 ms");
        assertThat(windows.waitingCuts()).isZero();
    }

    @Test
    void aShardOwingADecidedBranchIsInNoCutUntilTheBranchIsSettled() {
        windows.owe(1, "x1");
        Cut over1 = new Cut("r1");
        windows.request(NOW, new int[] {0, 1}, over1);
        assertThat(over1.gaveUp).contains("shard 1", "x1");
        Cut over0 = new Cut("r2");
        windows.request(NOW, new int[] {0, 2}, over0);
        assertThat(over0.window).as("other shards are not held up").isNotNull();
        over0.window.opened();

        windows.settled(1, "x1");
        Cut again = new Cut("r3");
        windows.request(NOW, new int[] {0, 1}, again);
        assertThat(again.window).isNotNull();
    }

    @Test
    void aScanThatBeganAfterTheBranchWasOwedAndDoesNotFindItSettlesIt() {
        long before = windows.mark();
        windows.owe(1, "x1");
        windows.preparedOn(1, Set.of(), before);
        Cut cut = new Cut("r1");
        windows.request(NOW, new int[] {1}, cut);
        assertThat(cut.gaveUp).as("the scan may have run before the branch was prepared").isNotNull();

        long after = windows.mark();
        windows.preparedOn(1, Set.of("x1"), after);
        Cut still = new Cut("r2");
        windows.request(NOW, new int[] {1}, still);
        assertThat(still.gaveUp).as("still prepared").isNotNull();

        windows.preparedOn(1, Set.of(), windows.mark());
        Cut settled = new Cut("r3");
        windows.request(NOW, new int[] {1}, settled);
        assertThat(settled.window).isNotNull();
    }

    @Test
    void withCutsOffCommitsAreNeverHeld() {
        windows.enabled(false);
        Cut cut = new Cut("r1");
        windows.request(NOW, new int[] {0, 1}, cut);
        assertThat(windows.enterPhase(NOW, () -> log.add("never"))).isTrue();
    }

    /** A cut as the window sees it: told when its window opens, or that it was given up. */
    private static final class Cut implements CutWindows.Opening {
        final String name;
        CutWindows.Window window;
        String gaveUp;

        Cut(String name) {
            this.name = name;
        }

        @Override
        public void open(CutWindows.Window window) {
            this.window = window;
        }

        @Override
        public void gaveUp(String reason) {
            gaveUp = reason;
        }
    }

    private static final class RecordingMetrics implements CutMetrics {
        final List<Long> cutWaits = new ArrayList<>();
        final List<Long> commitHolds = new ArrayList<>();
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
    }
}
