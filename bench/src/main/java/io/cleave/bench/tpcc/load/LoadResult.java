package io.cleave.bench.tpcc.load;

import java.util.Map;

/** Rows written per table and the wall time the load took. */
public record LoadResult(Map<String, Long> rowsByTable, boolean itemsLoaded, double seconds) {

    public long totalRows() {
        return rowsByTable.values().stream().mapToLong(Long::longValue).sum();
    }
}
