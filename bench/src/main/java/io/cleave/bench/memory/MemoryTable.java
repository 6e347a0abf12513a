package io.cleave.bench.memory;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The daemon's memory at each count of idle client connections, as a Markdown table with per-connection costs. */
public final class MemoryTable {

    /** One reading: {@code connections} open (or, for the last row, closed again). */
    public record Row(String label, int connections, DaemonMemory memory) {
    }

    private final List<Row> rows = new ArrayList<>();

    public void add(String label, int connections, DaemonMemory memory) {
        rows.add(new Row(label, connections, memory));
    }

    public List<Row> rows() {
        return rows;
    }

    /** Bytes per connection between the first row (none open) and {@code row}. */
    public static double perConnection(long from, long to, int connections) {
        return connections == 0 ? 0 : (double) (to - from) / connections;
    }

    public String markdown() {
        DaemonMemory base = rows.get(0).memory();
        StringBuilder out = new StringBuilder();
        out.append("| client connections | daemon RSS | RSS added | RSS per connection | RSS per 1,000 "
                + "| heap after full GC | heap added | heap per connection |\n");
        out.append("|---|---:|---:|---:|---:|---:|---:|---:|\n");
        for (Row r : rows) {
            DaemonMemory m = r.memory();
            double rssEach = perConnection(base.rssBytes(), m.rssBytes(), r.connections());
            double heapEach = perConnection(base.heapBytes(), m.heapBytes(), r.connections());
            out.append("| ").append(r.label())
                    .append(" | ").append(mib(m.rssBytes()))
                    .append(" | ").append(mib(m.rssBytes() - base.rssBytes()))
                    .append(" | ").append(r.connections() == 0 ? "" : kib(rssEach))
                    .append(" | ").append(r.connections() == 0 ? "" : mib(rssEach * 1000))
                    .append(" | ").append(mib(m.heapBytes()))
                    .append(" | ").append(mib(m.heapBytes() - base.heapBytes()))
                    .append(" | ").append(r.connections() == 0 ? "" : kib(heapEach))
                    .append(" |\n");
        }
        return out.toString();
    }

    private static String mib(double bytes) {
        return String.format(Locale.ROOT, "%.1f MiB", bytes / (1 << 20));
    }

    private static String kib(double bytes) {
        return String.format(Locale.ROOT, "%.1f KiB", bytes / 1024);
    }
}
