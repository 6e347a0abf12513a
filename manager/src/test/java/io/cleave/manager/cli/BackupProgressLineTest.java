package io.cleave.manager.cli;

import io.cleave.manager.backup.BackupPhase;
import io.cleave.manager.backup.BackupStatus;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class BackupProgressLineTest {

    private static BackupStatus status(BackupPhase phase, long read, long estimate, long history, String message) {
        return new BackupStatus("20261128-101500-000", "/backups", "logical", phase, "2026-11-28T10:15:00Z", null,
                estimate, read, read * 100, read * 30, 3, 4, 1, history, read > 0 ? 1500 : 0, 2000, message);
    }

    @Test
    void aTerminalGetsOneLineRedrawnWithBarRowsAndTheHistoryListHeldBack() {
        StringWriter text = new StringWriter();
        BackupProgressLine progress = new BackupProgressLine(new PrintWriter(text), true);
        progress.show(status(BackupPhase.COPYING, 500, 1000, 1234, null));
        assertThat(text.toString()).startsWith("\rbackup 20261128-101500-000 [###########.............]  48% copying"
                + "  rows 500/~1,000").contains("snapshots open 1.5s, history list 1,234").doesNotContain("\n");
        progress.show(status(BackupPhase.DONE, 1000, 1000, 10, null));
        assertThat(text.toString()).contains("\rbackup 20261128-101500-000 [########################] 100% done")
                .endsWith("\u001b[K\n");
    }

    @Test
    void aPhysicalBackupShowsWhatItCopiedNotRows() {
        BackupStatus copying = new BackupStatus("20261128-101500-000", "/backups", "physical", BackupPhase.COPYING,
                "2026-11-28T10:15:00Z", null, 0, 0, 40_000_000, 12_000_000, 3, 0, 0, 0, 0, 2000, null);
        assertThat(BackupProgressLine.line(copying)).contains("copying  physical: 40.0 MB copied, 12.0 MB stored  20.0 MB/s")
                .doesNotContain("rows");
    }

    @Test
    void elsewhereAPlainLineWhenThePhaseChangesAndTheFailureWithItsMessage() {
        StringWriter text = new StringWriter();
        BackupProgressLine progress = new BackupProgressLine(new PrintWriter(text), false);
        progress.show(status(BackupPhase.COPYING, 10, 1000, 0, null));
        progress.show(status(BackupPhase.COPYING, 20, 1000, 0, null));
        progress.show(status(BackupPhase.FAILED, 20, 1000, 0, "the backup location /backups is gone"));
        String[] lines = text.toString().split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).contains("copying").doesNotContain("\r");
        assertThat(lines[1]).contains("failed").endsWith("(the backup location /backups is gone)");
    }
}
