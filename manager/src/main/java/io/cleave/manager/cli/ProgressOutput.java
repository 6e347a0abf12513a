package io.cleave.manager.cli;

import java.io.PrintWriter;

/**
 * Where a long operation's progress line goes: on a terminal one line redrawn in place (ended when
 * the operation ends); elsewhere a plain line when the state changes, every few seconds, and at the
 * end, so logs and pipes get a readable record instead of carriage returns.
 */
final class ProgressOutput {

    private static final long PLAIN_EVERY_MILLIS = 5_000;

    private final PrintWriter out;
    private final boolean terminal;
    private Object lastState;
    private long lastPlainMillis;

    ProgressOutput(PrintWriter out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    /** Shows {@code line} for an operation in {@code state}; {@code end}: the operation is over. */
    void show(String line, Object state, boolean end) {
        if (terminal) {
            out.print("\r" + line + "\u001b[K");
            if (end) {
                out.println();
            }
        } else {
            long now = System.currentTimeMillis();
            if (!state.equals(lastState) || now - lastPlainMillis >= PLAIN_EVERY_MILLIS || end) {
                out.println(line);
                lastPlainMillis = now;
            }
        }
        lastState = state;
        out.flush();
    }
}
