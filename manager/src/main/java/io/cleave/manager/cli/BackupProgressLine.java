package io.cleave.manager.cli;

import io.cleave.manager.backup.BackupManifest;
import io.cleave.manager.backup.BackupStatus;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Shows a running backup as {@link MoveProgress} shows a move: one line redrawn in place on a
 * terminal (a bar, the phase, rows read of the estimate, MB stored, the rate, how long the snapshots
 * have been open and the history list they hold back), plain lines elsewhere when the phase changes
 * and every few seconds.
 */
final class BackupProgressLine {

    private static final int BAR = 24;
    private final ProgressOutput output;

    BackupProgressLine(PrintWriter out, boolean terminal) {
        this.output = new ProgressOutput(out, terminal);
    }

    void show(BackupStatus s) {
        output.show(line(s), s.phase(), s.phase().terminal());
    }

    static String line(BackupStatus s) {
        double fraction = switch (s.phase()) {
            case STARTING, CUTTING -> 0;
            case COPYING -> 0.95 * (s.rowsEstimate() <= 0 ? 0 : Math.min(1, (double) s.rowsRead() / s.rowsEstimate()));
            case FINISHING -> 0.97;
            case DONE -> 1;
            case FAILED -> 0;
        };
        int filled = (int) Math.round(fraction * BAR);
        double seconds = Math.max(0.001, s.durationMillis() / 1000.0);
        StringBuilder b = new StringBuilder();
        b.append("backup ").append(s.id()).append(" [").append("#".repeat(filled)).append(".".repeat(BAR - filled))
                .append("] ").append(String.format(Locale.ROOT, "%3d%%", Math.round(fraction * 100))).append(' ')
                .append(s.phase().name().toLowerCase(Locale.ROOT));
        if (BackupManifest.PHYSICAL.equals(s.engine())) {
            // mariadb-backup's stream has no known length: what was copied so far, and at what rate.
            b.append(String.format(Locale.ROOT, "  physical: %.1f MB copied, %.1f MB stored  %.1f MB/s", s.bytesRead() / 1e6,
                    s.storedBytes() / 1e6, s.bytesRead() / 1e6 / seconds));
        } else {
            b.append(String.format(Locale.ROOT, "  rows %,d/~%,d  %.1f MB read, %.1f MB stored  %.1f MB/s",
                    s.rowsRead(), s.rowsEstimate(), s.bytesRead() / 1e6, s.storedBytes() / 1e6, s.bytesRead() / 1e6 / seconds));
        }
        if (s.snapshotMillis() > 0) {
            b.append(String.format(Locale.ROOT, "  snapshots open %.1fs, history list %,d", s.snapshotMillis() / 1000.0,
                    s.historyLength()));
        }
        if (s.message() != null) {
            b.append("  (").append(s.message()).append(')');
        }
        return b.toString();
    }
}
