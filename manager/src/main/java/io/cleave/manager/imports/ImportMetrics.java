package io.cleave.manager.imports;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.HashSet;
import java.util.Optional;
import java.util.Set;

/**
 * An import on /metrics: {@code cleave_import_rows{table, kind="total"|"copied"}} per table of the
 * last import, and {@code cleave_import_state{state}} (1 for the state it is in).
 */
public final class ImportMetrics {

    public static final String ROWS = "cleave_import_rows";
    public static final String STATE = "cleave_import_state";
    private static final String[] STATES = {"attaching", "creating schema", "copying", "catching up", "verifying",
            "cutting over", "cleaning up", "detaching", "done", "failed"};

    private final MeterRegistry registry;
    private final ImportService imports;
    private final Set<String> known = new HashSet<>();

    ImportMetrics(MeterRegistry registry, ImportService imports) {
        this.registry = registry;
        this.imports = imports;
        for (String state : STATES) {
            Gauge.builder(STATE, this, m -> m.state().map(s -> s.equals(state) ? 1 : 0).orElse(0))
                    .tag("state", state.replace(' ', '_')).description("The import's state: 1 for the one it is in")
                    .register(registry);
        }
    }

    private Optional<String> state() {
        return imports.last().map(ImportStatus::state);
    }

    /** Registers the gauges of an import's tables. */
    synchronized void track(ImportRecord r) {
        for (String table : r.tables.keySet()) {
            String name = r.database + "." + table;
            if (known.add(name)) {
                Gauge.builder(ROWS, this, m -> rows(name, true)).tag("table", name).tag("kind", "total")
                        .description("Rows of each table of the import: its total and how many are copied").register(registry);
                Gauge.builder(ROWS, this, m -> rows(name, false)).tag("table", name).tag("kind", "copied")
                        .description("Rows of each table of the import: its total and how many are copied").register(registry);
            }
        }
    }

    private double rows(String name, boolean total) {
        return imports.last().flatMap(s -> s.tables().stream().filter(t -> (s.database() + "." + t.table()).equals(name))
                .findFirst()).map(t -> (double) (total ? t.rowsTotal() : t.rowsCopied())).orElse(0.0);
    }
}
