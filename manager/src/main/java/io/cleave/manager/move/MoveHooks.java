package io.cleave.manager.move;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Test hook into moves. Production runs {@link #NONE}. Crash tests start the daemon with
 * {@code -Dcleave.test.moveHaltAt=<POINT>}: the process then dies like kill -9 when a move reaches
 * that point, so resuming can be proved from each.
 */
@FunctionalInterface
public interface MoveHooks {

    /** Points a move passes, in order. */
    enum Point { COPYING, CATCHING_UP, VERIFYING, CUTTING_OVER, AFTER_FLIP, CLEANING_UP, UNDOING }

    MoveHooks NONE = (point, id) -> {
    };

    void at(Point point, long moveId);

    /** Hooks a test can replace while the daemon runs (in-process tests pause a move at a point). */
    final class Switchable implements MoveHooks {
        private volatile MoveHooks delegate;

        public Switchable(MoveHooks initial) {
            this.delegate = initial;
        }

        public void set(MoveHooks hooks) {
            this.delegate = hooks;
        }

        @Override
        public void at(Point point, long moveId) {
            delegate.at(point, moveId);
        }
    }

    static MoveHooks fromSystemProperties() {
        String haltAt = System.getProperty("cleave.test.moveHaltAt");
        if (haltAt == null || haltAt.isBlank()) {
            return NONE;
        }
        Point target = Point.valueOf(haltAt.trim());
        Logger log = LoggerFactory.getLogger(MoveHooks.class);
        log.warn("test hook armed: the process halts when a move reaches {}", target);
        return (point, id) -> {
            if (point == target) {
                log.warn("test hook: halting move {} at {}", id, point);
                Runtime.getRuntime().halt(137);
            }
        };
    }
}
