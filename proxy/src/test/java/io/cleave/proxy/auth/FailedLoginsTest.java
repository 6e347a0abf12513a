package io.cleave.proxy.auth;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class FailedLoginsTest {

    private static final long SECOND = 1_000_000_000L;
    /** System.nanoTime may be negative: the arithmetic must not care. */
    private static final long T0 = -5 * SECOND;

    private final FailedLogins logins = new FailedLogins(FailedLoginPolicy.DEFAULT);

    @Test
    void theFirstFailuresCostNothingThenEachAddsASecond() {
        for (int i = 0; i < 3; i++) {
            assertThat(logins.admit("app", "10.0.0.1", T0 + i * 100 * SECOND)).isZero();
            logins.failed("app", "10.0.0.1");
        }
        assertThat(logins.admit("app", "10.0.0.1", T0 + 1000 * SECOND)).isEqualTo(SECOND);
        logins.failed("app", "10.0.0.1");
        assertThat(logins.admit("app", "10.0.0.1", T0 + 2000 * SECOND)).isEqualTo(2 * SECOND);
        assertThat(logins.failures("app", "10.0.0.1")).isEqualTo(4);
        // Another host, or another account from the same host, is not affected.
        assertThat(logins.admit("app", "10.0.0.2", T0)).isZero();
        assertThat(logins.admit("root", "10.0.0.1", T0)).isZero();
    }

    @Test
    void theDelayStopsGrowingAtTheMaximum() {
        for (int i = 0; i < 1000; i++) {
            logins.failed("app", "h");
        }
        assertThat(logins.admit("app", "h", T0)).isEqualTo(30 * SECOND);
    }

    @Test
    void attemptsMadeAtOnceWaitTheirTurnsAndTheQueueIsBounded() {
        for (int i = 0; i < 3; i++) {
            logins.failed("app", "h");
        }
        // Thirty connections at the same moment: one second apart each, up to the 30 s limit.
        for (int i = 0; i < 30; i++) {
            assertThat(logins.admit("app", "h", T0)).isEqualTo((i + 1) * SECOND);
        }
        assertThat(logins.admit("app", "h", T0)).isEqualTo(FailedLogins.REFUSED);
        // Time passes: turns free up again.
        assertThat(logins.admit("app", "h", T0 + 10 * SECOND)).isEqualTo(21 * SECOND);
        assertThat(logins.refusal("app", "h")).isEqualTo("Access denied for user 'app'@'h'. Account is blocked for 30 s"
                + " due to 3 consecutive failed logins.");
    }

    @Test
    void aSuccessForgetsItsOwnAccountOnly() {
        for (int i = 0; i < 10; i++) {
            logins.failed("root", "h");
        }
        logins.succeeded("app", "h");
        assertThat(logins.failures("root", "h")).isEqualTo(10);
        assertThat(logins.admit("root", "h", T0)).isPositive();
    }

    @Test
    void aSuccessForgetsTheFailures() {
        for (int i = 0; i < 10; i++) {
            logins.failed("app", "h");
        }
        assertThat(logins.admit("app", "h", T0)).isPositive();
        logins.succeeded("app", "h");
        assertThat(logins.failures("app", "h")).isZero();
        assertThat(logins.admit("app", "h", T0)).isZero();
    }

    @Test
    void offNeverDelays() {
        FailedLogins off = new FailedLogins(FailedLoginPolicy.OFF);
        for (int i = 0; i < 100; i++) {
            off.failed("app", "h");
        }
        assertThat(off.admit("app", "h", T0)).isZero();
        assertThat(off.failures("app", "h")).isZero();
    }

    @Test
    void rememberedEntriesAreBounded() {
        FailedLogins strict = new FailedLogins(new FailedLoginPolicy(0, Duration.ofMillis(1), Duration.ofMillis(10)));
        for (int i = 0; i <= FailedLogins.MAX_ENTRIES; i++) {
            strict.failed("app", "host-" + i);
        }
        // The host that failed longest ago is the one forgotten.
        assertThat(strict.failures("app", "host-0")).isZero();
        assertThat(strict.failures("app", "host-1")).isEqualTo(1);
        assertThat(strict.failures("app", "host-" + FailedLogins.MAX_ENTRIES)).isEqualTo(1);
    }
}
