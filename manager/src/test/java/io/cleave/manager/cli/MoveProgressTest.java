package io.cleave.manager.cli;

import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;

import static org.assertj.core.api.Assertions.assertThat;

class MoveProgressTest {

    private static MoveRecord move(MovePhase phase, long copied, long total) {
        MoveRecord r = new MoveRecord();
        r.id = 4;
        r.phase = phase;
        r.rowsCopied = copied;
        r.rowsTotal = total;
        return r;
    }

    @Test
    void aTerminalGetsOneLineRedrawnWithBarPhaseRowsAndLag() {
        StringWriter text = new StringWriter();
        MoveProgress progress = new MoveProgress(new PrintWriter(text), true);
        progress.show(move(MovePhase.COPYING, 500, 1000));
        MoveRecord catchingUp = move(MovePhase.CATCHING_UP, 1000, 1000);
        catchingUp.lagEvents = 12;
        catchingUp.lagSeconds = 0.4;
        progress.show(catchingUp);
        String out = text.toString();
        assertThat(out).startsWith("\rmove 4 [##########..............]  40% copying  rows 500/1,000");
        assertThat(out).contains("\rmove 4 [####################....]  82% catching up  rows 1,000/1,000  lag 12 events 0.4s");
        assertThat(out).doesNotContain("\n");
        MoveRecord done = move(MovePhase.DONE, 1000, 1000);
        done.pauseMillis = 42;
        progress.show(done);
        assertThat(text.toString()).endsWith("100% done  rows 1,000/1,000  pause 42 ms\u001b[K\n");
    }

    @Test
    void elsewhereAPlainLineWhenThePhaseChanges() {
        StringWriter text = new StringWriter();
        MoveProgress progress = new MoveProgress(new PrintWriter(text), false);
        progress.show(move(MovePhase.COPYING, 10, 1000));
        progress.show(move(MovePhase.COPYING, 20, 1000));
        progress.show(move(MovePhase.VERIFYING, 1000, 1000));
        String[] lines = text.toString().split("\n");
        assertThat(lines).hasSize(2);
        assertThat(lines[0]).contains("copying").doesNotContain("\r");
        assertThat(lines[1]).contains("verifying");
    }
}
