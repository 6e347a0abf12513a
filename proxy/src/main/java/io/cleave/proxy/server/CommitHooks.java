package io.cleave.proxy.server;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Test hook into distributed commits. Production runs {@link #NONE}. Crash tests start the
 * daemon with {@code -Dcleave.test.haltAt=<STEP>}: the process then dies like kill -9 (no
 * shutdown hooks) when a commit reaches that step, so recovery can be proved from every point.
 */
public interface CommitHooks {

    CommitHooks NONE = (step, xid) -> {
    };

    void at(CommitStep step, String xid);

    /** The hooks the system properties ask for (halting at a step), else {@link #NONE}. */
    static CommitHooks fromSystemProperties() {
        String haltAt = System.getProperty("cleave.test.haltAt");
        if (haltAt == null || haltAt.isBlank()) {
            return NONE;
        }
        CommitStep target = CommitStep.valueOf(haltAt.trim());
        Logger log = LoggerFactory.getLogger(CommitHooks.class);
        log.warn("test hook armed: the process halts when a distributed commit reaches {}", target);
        return (step, xid) -> {
            if (step == target) {
                log.warn("test hook: halting at {} of {}", step, xid);
                Runtime.getRuntime().halt(137);
            }
        };
    }
}
