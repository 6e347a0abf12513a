package io.cleave.manager.supervisor;

import org.junit.jupiter.api.Test;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;

import static org.assertj.core.api.Assertions.assertThat;

class CrashTrackerTest {

    /** A clock the test moves by hand. */
    static final class FakeClock extends Clock {
        private Instant now = Instant.parse("2030-01-01T00:00:00Z");

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    private final RestartPolicy policy = new RestartPolicy(Duration.ofSeconds(1), Duration.ofSeconds(30), 5,
            Duration.ofMinutes(5), Duration.ofMinutes(1), Duration.ofMinutes(5));

    @Test
    void delayDoublesUpToTheCap() {
        assertThat(policy.delay(1)).isEqualTo(Duration.ofSeconds(1));
        assertThat(policy.delay(2)).isEqualTo(Duration.ofSeconds(2));
        assertThat(policy.delay(5)).isEqualTo(Duration.ofSeconds(16));
        assertThat(policy.delay(6)).isEqualTo(Duration.ofSeconds(30));
        assertThat(policy.delay(60)).isEqualTo(Duration.ofSeconds(30));
    }

    @Test
    void quickCrashesBackOffThenBecomeACrashLoop() {
        FakeClock clock = new FakeClock();
        CrashTracker tracker = new CrashTracker(policy, clock);
        long[] expected = {1, 2, 4, 8, 16};
        for (long seconds : expected) {
            Instant started = clock.instant();
            clock.advance(Duration.ofMillis(300));
            assertThat(tracker.onCrash(started)).contains(Duration.ofSeconds(seconds));
            clock.advance(Duration.ofSeconds(seconds));
        }
        clock.advance(Duration.ofMillis(300));
        assertThat(tracker.onCrash(clock.instant())).as("sixth crash within 5 minutes").isEmpty();
    }

    @Test
    void crashesSpreadOverTimeNeverMakeALoop() {
        FakeClock clock = new FakeClock();
        CrashTracker tracker = new CrashTracker(policy, clock);
        for (int i = 0; i < 20; i++) {
            Instant started = clock.instant();
            clock.advance(Duration.ofMinutes(2)); // each run was stable for two minutes
            assertThat(tracker.onCrash(started)).as("crash %d", i).contains(Duration.ofSeconds(1));
        }
    }

    @Test
    void aStableRunResetsTheBackoff() {
        FakeClock clock = new FakeClock();
        CrashTracker tracker = new CrashTracker(policy, clock);
        assertThat(tracker.onCrash(clock.instant())).contains(Duration.ofSeconds(1));
        assertThat(tracker.onCrash(clock.instant())).contains(Duration.ofSeconds(2));
        assertThat(tracker.onCrash(clock.instant())).contains(Duration.ofSeconds(4));
        Instant started = clock.instant();
        clock.advance(Duration.ofSeconds(61));
        assertThat(tracker.onCrash(started)).contains(Duration.ofSeconds(1));
    }

    @Test
    void crashesOutsideTheWindowAreForgotten() {
        FakeClock clock = new FakeClock();
        CrashTracker tracker = new CrashTracker(policy, clock);
        for (int i = 0; i < 5; i++) {
            assertThat(tracker.onCrash(clock.instant())).isPresent();
        }
        clock.advance(Duration.ofMinutes(6));
        assertThat(tracker.onCrash(clock.instant())).isPresent();
        assertThat(tracker.crashesInWindow()).isEqualTo(1);
    }

    @Test
    void resetForgetsEverything() {
        FakeClock clock = new FakeClock();
        CrashTracker tracker = new CrashTracker(policy, clock);
        for (int i = 0; i < 5; i++) {
            tracker.onCrash(clock.instant());
        }
        tracker.reset();
        assertThat(tracker.onCrash(clock.instant())).contains(Duration.ofSeconds(1));
    }
}
