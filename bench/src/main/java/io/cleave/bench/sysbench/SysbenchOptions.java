package io.cleave.bench.sysbench;

import java.util.List;

/**
 * The workload side of a sysbench invocation: one of the bundled oltp_* scripts, its tables and
 * rows, client threads, and --db-ps-mode (auto: server-side prepared statements; disable: text).
 */
public record SysbenchOptions(String workload, int tables, int tableSize, int threads, String psMode) {

    public SysbenchOptions {
        if (!workload.matches("[a-z_]+")) {
            throw new IllegalArgumentException("not a sysbench workload name: " + workload);
        }
        if (tables < 1 || tableSize < 1 || threads < 1) {
            throw new IllegalArgumentException("tables, table size and threads must be positive");
        }
        if (!psMode.equals("auto") && !psMode.equals("disable")) {
            throw new IllegalArgumentException("--db-ps-mode is auto or disable, not " + psMode);
        }
    }

    public SysbenchOptions withWorkload(String name) {
        return new SysbenchOptions(name, tables, tableSize, threads, psMode);
    }

    List<String> arguments() {
        return List.of("--tables=" + tables, "--table-size=" + tableSize, "--db-ps-mode=" + psMode);
    }
}
