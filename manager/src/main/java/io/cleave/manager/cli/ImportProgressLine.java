package io.cleave.manager.cli;

import io.cleave.manager.imports.ImportStatus;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Shows a running import: on a terminal one line redrawn in place (a bar over all rows, the state,
 * the table being copied); elsewhere a plain line when the state changes and every few seconds.
 */
final class ImportProgressLine {

    private static final int BAR = 24;
    private final ProgressOutput output;

    ImportProgressLine(PrintWriter out, boolean terminal) {
        this.output = new ProgressOutput(out, terminal);
    }

    void show(ImportStatus s) {
        output.show(line(s), s.state(), s.state().equals("done") || s.state().equals("failed"));
    }

    static String line(ImportStatus s) {
        double fraction = fraction(s);
        int filled = (int) Math.round(fraction * BAR);
        StringBuilder b = new StringBuilder("import [").append("#".repeat(filled)).append(".".repeat(BAR - filled))
                .append("] ").append(String.format(Locale.ROOT, "%3d%%", Math.round(fraction * 100))).append(' ')
                .append(s.state()).append(String.format(Locale.ROOT, "  rows %,d/%,d", s.rowsCopied(), s.rowsTotal()));
        for (ImportStatus.Table t : s.tables()) {
            if (t.state().equals("copying")) {
                b.append(String.format(Locale.ROOT, "  %s %,d/%,d", t.table(), t.rowsCopied(), t.rowsTotal()));
                break;
            }
        }
        if (s.message() != null && !s.state().equals("done")) {
            b.append("  (").append(s.message()).append(')');
        }
        return b.toString();
    }

    /** The copy is most of the work; the phases after it add their shares. */
    static double fraction(ImportStatus s) {
        double copy = s.rowsTotal() == 0 ? 0 : Math.min(1, (double) s.rowsCopied() / s.rowsTotal());
        return switch (s.state()) {
            case "attaching", "creating schema" -> 0;
            case "copying", "moving", "failed" -> 0.8 * copy;
            case "catching up" -> 0.82;
            case "verifying" -> 0.86;
            case "cutting over" -> 0.9;
            case "cleaning up", "detaching" -> 0.95;
            case "done" -> 1;
            default -> 0.8 * copy;
        };
    }
}
