package io.cleave.manager.imports;

import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.move.TableProgress;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** An import's status from its record and its move's. */
final class ImportProgress {

    private ImportProgress() {
    }

    static ImportStatus of(ImportRecord r, MoveRecord move) {
        String state = switch (r.phase) {
            // "done" is the import's own end (the source detached), never its move's: a move that
            // ended leaves the import detaching until the source is let go.
            case MOVING -> move == null ? "moving" : move.phase == MovePhase.PLANNED || move.phase == MovePhase.COPYING
                    ? "copying" : move.phase == MovePhase.DONE ? "detaching" : move.phase.name().toLowerCase().replace('_', ' ');
            default -> ImportService.state(r);
        };
        List<ImportStatus.Table> tables = new ArrayList<>();
        long copied = 0;
        long total = 0;
        for (Map.Entry<String, io.cleave.manager.move.RuleSpec> t : r.tables.entrySet()) {
            TableProgress p = move == null ? null : move.tables.stream().filter(x -> x.table.equals(t.getKey()))
                    .findFirst().orElse(null);
            long rowsTotal = p == null ? 0 : p.rowsTotal;
            long rowsCopied = p == null ? 0 : p.rowsCopied;
            String tableState = r.phase == ImportPhase.DONE || r.phase == ImportPhase.DETACHING
                    || move != null && move.phase.switched() ? "done"
                    : p != null && p.copied ? "copied" : rowsCopied > 0 ? "copying" : "waiting";
            tables.add(new ImportStatus.Table(t.getKey(), t.getValue().toString(), rowsTotal, rowsCopied, tableState));
            copied += rowsCopied;
            total += rowsTotal;
        }
        return new ImportStatus(state, r.source, r.database, r.moveId, copied, total,
                move == null ? 0 : move.pauseMillis, tables, new ArrayList<>(r.views.keySet()), r.routines,
                r.message != null ? r.message : move != null && !move.phase.terminal() ? move.message : null,
                r.started, r.ended);
    }
}
