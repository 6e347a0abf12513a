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
            assertThat(logins.admit("10.0.0.1", T0 + i * 100 * SECOND)).isZero();
            logins.failed("10.0.0.1");
        }
        assertThat(logins.admit("10.0.0.1", T0 + 1000 * SECOND)).isEqualTo(SECOND);
        logins.failed("10.0.0.1");
        assertThat(logins.admit("10.0.0.1", T0 + 2000 * SECOND)).isEqualTo(2 * SECOND);
        assertThat(logins.failures("10.0.0.1")).isEqualTo(4);
        // Another host is not affected.
        assertThat(logins.admit("10.0.0.2", T0)).isZero();
    }

    @Test
    void theDelayStopsGrowingAtTheMaximum() {
        for (int i = 0; i < 1000; i++) {
            logins.failed("h");
        }
        assertThat(logins.admit("h", T0)).isEqualTo(30 * SECOND);
    }

    @Test
    void attemptsMadeAtOnceWaitTheirTurnsAndTheQueueIsBounded() {
        for (int i = 0; i < 3; i++) {
            logins.failed("h");
        }
        // Thirty connections at the same moment: one second apart each, up to the 30 s limit.
        for (int i = 0; i < 30; i++) {
            assertThat(logins.admit("h", T0)).isEqualTo((i + 1) * SECOND);
        }
        assertThat(logins.admit("h", T0)).isEqualTo(FailedLogins.REFUSED);
        // Time passes: turns free up again.
        assertThat(logins.admit("h", T0 + 10 * SECOND)).isEqualTo(21 * SECOND);
        assertThat(logins.refusal("h")).contains("'h'").contains("3 failed logins").contains("30 s");
    }

    @Test
    void aSuccessForgetsTheHost() {
        for (int i = 0; i < 10; i++) {
            logins.failed("h");
        }
        assertThat(logins.admit("h", T0)).isPositive();
        logins.succeeded("h");
        assertThat(logins.failures("h")).isZero();
        assertThat(logins.admit("h", T0)).isZero();
    }

    @Test
    void offNeverDelays() {
        FailedLogins off = new FailedLogins(FailedLoginPolicy.OFF);
        for (int i = 0; i < 100; i++) {
            off.failed("h");
        }
        assertThat(off.admit("h", T0)).isZero();
        assertThat(off.failures("h")).isZero();
    }

    @Test
    void rememberedHostsAreBounded() {
        FailedLogins strict = new FailedLogins(new FailedLoginPolicy(0, Duration.ofMillis(1), Duration.ofMillis(10)));
        for (int i = 0; i <= FailedLogins.MAX_HOSTS; i++) {
            strict.failed("host-" + i);
        }
        // The host that failed longest ago is the one forgotten.
        assertThat(strict.failures("host-0")).isZero();
        assertThat(strict.failures("host-1")).isEqualTo(1);
        assertThat(strict.failures("host-" + FailedLogins.MAX_HOSTS)).isEqualTo(1);
    }
}
