package io.cleave.manager.standby;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;

/**
 * What {@code cleave switchover} asks the primary for.
 *
 * @param standby        the standby's admin URL; null once the pair knows it (after a first switchover)
 * @param standbyToken   the standby's admin token, with {@code standby}
 * @param drainMillis    how long open transactions may take to end while statements are held; past it
 *                       the switchover is abandoned and nothing changes (0: the default)
 * @param catchUpMillis  how long each replica may take to apply the primary's last transactions (0: the default)
 * @param maxLagSeconds  a replica further behind than this refuses the switchover before anything is held
 *                       (0: the default)
 */
@JsonIgnoreProperties(ignoreUnknown = true)
public record SwitchoverRequest(String standby, String standbyToken, long drainMillis, long catchUpMillis,
                                long maxLagSeconds) {

    static final long DEFAULT_DRAIN_MILLIS = 5_000;
    static final long DEFAULT_CATCH_UP_MILLIS = 5_000;
    static final long DEFAULT_MAX_LAG_SECONDS = 5;

    public SwitchoverRequest {
        drainMillis = drainMillis > 0 ? drainMillis : DEFAULT_DRAIN_MILLIS;
        catchUpMillis = catchUpMillis > 0 ? catchUpMillis : DEFAULT_CATCH_UP_MILLIS;
        maxLagSeconds = maxLagSeconds > 0 ? maxLagSeconds : DEFAULT_MAX_LAG_SECONDS;
        if (standby != null && (standbyToken == null || standbyToken.isBlank())) {
            throw new IllegalArgumentException("give the standby's admin token with its URL");
        }
    }

    /** With the defaults, to a standby the pair already knows. */
    public static SwitchoverRequest known() {
        return new SwitchoverRequest(null, null, 0, 0, 0);
    }
}
