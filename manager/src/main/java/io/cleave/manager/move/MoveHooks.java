package io.cleave.manager.move;

import java.nio.file.Files;
import java.nio.file.Path;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Test hook into moves. Production runs {@link #NONE}. Crash tests start the daemon with
 * {@code -Dcleave.test.moveHaltAt=<POINT>}: the process then dies like kill -9 when a move reaches
 * that point, so resuming can be proved from each. With {@code -Dcleave.test.moveHaltGate=<file>}
 * as well, the move waits at that point until the file exists and halts then: the test decides
 * when (after its clients wrote), instead of racing a copy that can reach the point at once. With
 * {@code -Dcleave.test.moveHaltMove=<id>} only that move halts (others before it run to their end).
 * {@code -Dcleave.test.movePauseAt} makes a move wait instead, and go on (see {@link #pauseFromSystemProperties}).
 */
@FunctionalInterface
public interface MoveHooks {

    /**
     * Points a move passes, in order. BEFORE_FLIP: inside the held cutover, every change applied, the map not flipped
     * yet; AFTER_FLIP: the flip's version published, statements still held; CLEANED_CHUNK: after each chunk of the
     * source's rows the clean-up deleted.
     */
    enum Point {
        COPYING, CATCHING_UP, VERIFYING, CUTTING_OVER, FILLING_LOOKUPS, KEYS_REGISTERED, BEFORE_FLIP, AFTER_FLIP,
        CLEANING_UP, CLEANED_CHUNK, UNDOING
    }

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
            return pauseFromSystemProperties();
        }
        Point target = Point.valueOf(haltAt.trim());
        String gateProperty = System.getProperty("cleave.test.moveHaltGate");
        Path gate = gateProperty == null || gateProperty.isBlank() ? null : Path.of(gateProperty);
        long onlyMove = Long.getLong("cleave.test.moveHaltMove", 0);
        Logger log = LoggerFactory.getLogger(MoveHooks.class);
        log.warn("test hook armed: the process halts when a move reaches {}{}", target,
                gate == null ? "" : " once " + gate + " exists");
        return (point, id) -> {
            if (point == target && (onlyMove == 0 || id == onlyMove)) {
                if (gate != null && !Files.exists(gate)) {
                    // A test that kills the host itself waits for this line instead of letting the hook halt.
                    log.warn("test hook: move {} waits at {} until {} exists", id, point, gate);
                }
                awaitGate(gate);
                log.warn("test hook: halting move {} at {}", id, point);
                Runtime.getRuntime().halt(137);
            }
        };
    }

    /**
     * {@code -Dcleave.test.movePauseAt=<POINT> -Dcleave.test.movePauseGate=<file>}: a move waits at that point
     * until the file exists, then goes on (a test changes something around the process at a known step).
     */
    private static MoveHooks pauseFromSystemProperties() {
        String pauseAt = System.getProperty("cleave.test.movePauseAt");
        String gateProperty = System.getProperty("cleave.test.movePauseGate");
        if (pauseAt == null || pauseAt.isBlank() || gateProperty == null || gateProperty.isBlank()) {
            return NONE;
        }
        Point target = Point.valueOf(pauseAt.trim());
        Path gate = Path.of(gateProperty);
        LoggerFactory.getLogger(MoveHooks.class).warn("test hook armed: a move waits at {} until {} exists", target, gate);
        return (point, id) -> {
            if (point == target) {
                awaitGate(gate);
            }
        };
    }

    private static void awaitGate(Path gate) {
        while (gate != null && !Files.exists(gate)) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }
}
