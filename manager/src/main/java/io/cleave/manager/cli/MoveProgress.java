package io.cleave.manager.cli;

import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Shows a running move: on a terminal one line redrawn in place (a bar, the phase, rows copied of
 * the total, the copy rate, catch-up lag, time left); elsewhere a plain line whenever the phase
 * changes and every few seconds.
 */
final class MoveProgress {

    private static final int BAR = 24;
    private static final long PLAIN_EVERY_MILLIS = 5_000;

    private final PrintWriter out;
    private final boolean terminal;
    private final long startedMillis = System.currentTimeMillis();
    private MovePhase lastPhase;
    private long lastPlainMillis;
    private long firstRows = -1;

    MoveProgress(PrintWriter out, boolean terminal) {
        this.out = out;
        this.terminal = terminal;
    }

    void show(MoveRecord r) {
        String line = line(r);
        if (terminal) {
            out.print("\r" + line + "\u001b[K");
            if (r.phase.terminal()) {
                out.println();
            }
        } else {
            long now = System.currentTimeMillis();
            if (r.phase != lastPhase || now - lastPlainMillis >= PLAIN_EVERY_MILLIS || r.phase.terminal()) {
                out.println(line);
                lastPlainMillis = now;
            }
        }
        lastPhase = r.phase;
        out.flush();
    }

    String line(MoveRecord r) {
        long elapsed = Math.max(1, System.currentTimeMillis() - startedMillis);
        if (firstRows < 0) {
            firstRows = r.rowsCopied;
        }
        double rate = (r.rowsCopied - firstRows) * 1000.0 / elapsed;
        double fraction = fraction(r);
        int filled = (int) Math.round(fraction * BAR);
        StringBuilder b = new StringBuilder();
        b.append("move ").append(r.id).append(" [").append("#".repeat(filled)).append(".".repeat(BAR - filled))
                .append("] ").append(String.format(Locale.ROOT, "%3d%%", Math.round(fraction * 100))).append(' ')
                .append(r.phase.name().toLowerCase(Locale.ROOT).replace('_', ' '))
                .append(String.format(Locale.ROOT, "  rows %,d/%,d", r.rowsCopied, r.rowsTotal));
        if (r.phase == MovePhase.COPYING && rate > 0) {
            b.append(String.format(Locale.ROOT, "  %,.0f rows/s", rate));
            long left = r.rowsTotal - r.rowsCopied;
            if (left > 0) {
                b.append(String.format(Locale.ROOT, "  ETA %ds", Math.round(left / rate)));
            }
        }
        if (r.phase == MovePhase.CATCHING_UP || r.phase == MovePhase.VERIFYING || r.phase == MovePhase.CUTTING_OVER) {
            b.append(String.format(Locale.ROOT, "  lag %d events %.1fs", r.lagEvents, r.lagSeconds));
        }
        if (r.phase.switched() || r.phase == MovePhase.DONE) {
            b.append(String.format(Locale.ROOT, "  pause %.0f ms", r.pauseMillis));
        }
        if (r.message != null && !r.phase.equals(MovePhase.DONE)) {
            b.append("  (").append(r.message).append(')');
        }
        return b.toString();
    }

    /** How far the move is: the copy is most of the work; each later phase adds its share. */
    static double fraction(MoveRecord r) {
        double copy = r.rowsTotal == 0 ? 1 : Math.min(1, (double) r.rowsCopied / r.rowsTotal);
        return switch (r.phase) {
            case PLANNED -> 0;
            case COPYING -> 0.8 * copy;
            case CATCHING_UP -> 0.82;
            case VERIFYING -> 0.86;
            case CUTTING_OVER -> 0.9;
            case CLEANING_UP -> 0.95;
            case DONE -> 1;
            case UNDOING, CANCELLED, FAILED -> 0.8 * copy;
        };
    }
}
