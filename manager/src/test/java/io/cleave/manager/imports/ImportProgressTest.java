package io.cleave.manager.imports;

import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class ImportProgressTest {

    @Test
    void anEndedMoveLeavesTheImportDetachingUntilTheSourceIsLetGo() {
        ImportRecord r = new ImportRecord();
        r.phase = ImportPhase.MOVING;
        MoveRecord move = new MoveRecord();

        move.phase = MovePhase.COPYING;
        assertThat(ImportProgress.of(r, move).state()).isEqualTo("copying");
        move.phase = MovePhase.CUTTING_OVER;
        assertThat(ImportProgress.of(r, move).state()).isEqualTo("cutting over");
        move.phase = MovePhase.DONE;
        assertThat(ImportProgress.of(r, move).state()).isEqualTo("detaching");

        r.phase = ImportPhase.DONE;
        assertThat(ImportProgress.of(r, move).state()).isEqualTo("done");
    }
}
