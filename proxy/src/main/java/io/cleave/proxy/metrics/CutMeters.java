package io.cleave.proxy.metrics;

import io.cleave.proxy.cut.CutMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/** The meters of consistent cuts (see {@link io.cleave.proxy.cut.CutWindows}). */
final class CutMeters implements CutMetrics {

    /** Cuts asked for; tag outcome: taken, or why not (window_expired, wait_expired, shard_error). */
    static final String CUTS = "cleave.proxy.cuts";
    /** How long a cut waited for its window (for cross-shard commits in flight to end). */
    static final String CUT_WAIT = "cleave.proxy.cut.wait";
    /** How long each window stayed open (its cuts' snapshots being opened); its count is the windows. */
    static final String CUT_WINDOW = "cleave.proxy.cut.window";
    /** How long a cross-shard commit's decision waited behind a cut (its client waited as long). */
    static final String CUT_COMMIT_WAIT = "cleave.proxy.cut.commit.wait";
    /** How long branch commits (XA COMMIT, after the client's answer) waited behind a cut. */
    static final String CUT_BRANCH_COMMIT_WAIT = "cleave.proxy.cut.branch.commit.wait";
    /** Client answers (or next commands) that waited for a window to close. */
    static final String CUT_HELD_ANSWERS = "cleave.proxy.cut.held.answers";

    private final MeterRegistry registry;
    private final Counter taken;
    private final Map<String, Counter> failed = new ConcurrentHashMap<>();
    private final Timer waits;
    private final Timer windows;
    private final Timer commitWaits;
    private final Timer branchCommitWaits;
    private final Counter heldAnswers;

    CutMeters(MeterRegistry registry) {
        this.registry = registry;
        taken = outcome("taken");
        waits = timer(CUT_WAIT, "How long a consistent cut waited for cross-shard commits in flight to end");
        windows = timer(CUT_WINDOW, "How long each cut window stayed open while its snapshots were opened");
        commitWaits = timer(CUT_COMMIT_WAIT, "How long a cross-shard commit's decision waited behind a cut");
        branchCommitWaits = timer(CUT_BRANCH_COMMIT_WAIT,
                "How long branch commits of an answered cross-shard commit waited behind a cut");
        heldAnswers = Counter.builder(CUT_HELD_ANSWERS)
                .description("Client answers or next commands that waited for a cut window to close").register(registry);
    }

    private Counter outcome(String outcome) {
        return Counter.builder(CUTS).description("Consistent cuts asked for, by outcome").tag("outcome", outcome)
                .register(registry);
    }

    private Timer timer(String name, String description) {
        return Timer.builder(name).description(description).publishPercentileHistogram()
                .minimumExpectedValue(Duration.ofNanos(10_000)).maximumExpectedValue(Duration.ofSeconds(10))
                .register(registry);
    }

    @Override
    public void cutTaken(long waitNanos) {
        taken.increment();
        waits.record(waitNanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void cutFailed(String reason) {
        failed.computeIfAbsent(reason, this::outcome).increment();
    }

    @Override
    public void windowClosed(long nanos, int cuts) {
        windows.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void commitHeld(long nanos) {
        commitWaits.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void branchCommitHeld(long nanos) {
        branchCommitWaits.record(nanos, TimeUnit.NANOSECONDS);
    }

    @Override
    public void answerHeld() {
        heldAnswers.increment();
    }
}
