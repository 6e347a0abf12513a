package io.cleave.proxy.unique;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Test hooks between a statement's lookup rows and its rows. Production runs none. Crash tests
 * start the daemon with {@code -Dcleave.test.uniqueHaltAt=LOOKUP_WRITTEN} (the process dies like
 * kill -9 once a statement's lookup rows are written and before its rows are), or with
 * {@code -Dcleave.test.uniquePauseMs=N} (the statement waits there N ms, so a test can kill a shard
 * meanwhile). {@code -Dcleave.test.uniqueHaltAt=BUILD_SCANNING} halts once a CREATE UNIQUE INDEX
 * registered its key and is about to read the rows; {@code -Dcleave.test.uniqueBuildPauseMs=N} makes
 * it wait there N ms (so a test can try a move meanwhile).
 */
public final class UniqueHooks {

    private static final Logger log = LoggerFactory.getLogger(UniqueHooks.class);
    private static final boolean HALT = "LOOKUP_WRITTEN".equals(System.getProperty("cleave.test.uniqueHaltAt"));
    private static final boolean HALT_BUILD = "BUILD_SCANNING".equals(System.getProperty("cleave.test.uniqueHaltAt"));
    private static final long PAUSE_MS = Long.getLong("cleave.test.uniquePauseMs", 0L);
    private static final long BUILD_PAUSE_MS = Long.getLong("cleave.test.uniqueBuildPauseMs", 0L);

    private UniqueHooks() {
    }

    /** A lookup's build is about to read the table's rows: halts, pauses on {@code loop}, or goes on with {@code next}. */
    public static void buildScanning(ScheduledExecutorService loop, Runnable next) {
        at(HALT_BUILD, BUILD_PAUSE_MS, "a unique key's build registered and its rows not read", loop, next);
    }

    /** The lookup rows are written: halts, pauses on {@code loop}, or goes on with {@code next}. */
    public static void lookupWritten(ScheduledExecutorService loop, Runnable next) {
        at(HALT, PAUSE_MS, "the lookup rows written and the rows not", loop, next);
    }

    private static void at(boolean halt, long pauseMs, String where, ScheduledExecutorService loop, Runnable next) {
        if (halt) {
            log.warn("test hook: halting with {}", where);
            Runtime.getRuntime().halt(137);
        }
        if (pauseMs > 0) {
            log.warn("test hook: pausing {} ms with {}", pauseMs, where);
            loop.schedule(next, pauseMs, TimeUnit.MILLISECONDS);
            return;
        }
        next.run();
    }
}
