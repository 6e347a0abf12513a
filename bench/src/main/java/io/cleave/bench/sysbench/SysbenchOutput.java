package io.cleave.bench.sysbench;

import io.cleave.bench.compare.ThroughputPoint;
import io.cleave.bench.tpcc.run.LatencySummary;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What one {@code sysbench ... run} printed: totals, latency percentiles per event (computed from
 * the {@code --histogram} rows, as sysbench computes its own percentile), and the per-interval
 * transaction rate of {@code --report-interval}.
 */
public record SysbenchOutput(double seconds, long transactions, long queries, long errors, long reconnects,
                             LatencySummary latency, List<ThroughputPoint> tpsSeries) {

    private static final Pattern INTERVAL = Pattern.compile("^\\[\\s*(\\d+(?:\\.\\d+)?)s\\s*\\].*?\\btps:\\s*([0-9.]+)");
    private static final Pattern HISTOGRAM_ROW = Pattern.compile("^\\s*([0-9.]+)\\s*\\|\\**\\s+(\\d+)\\s*$");
    private static final Pattern TOTAL = Pattern.compile("^\\s*(transactions|queries|ignored errors|reconnects):\\s+(\\d+)");
    private static final Pattern TOTAL_TIME = Pattern.compile("^\\s*total time:\\s+([0-9.]+)s");
    private static final Pattern LATENCY = Pattern.compile("^\\s*(avg|max):\\s+([0-9.]+)");

    public double tps() {
        return transactions / seconds;
    }

    public double qps() {
        return queries / seconds;
    }

    /** Parses the standard output of a run with --histogram=on; fails when a total is missing. */
    public static SysbenchOutput parse(String output) {
        List<ThroughputPoint> series = new ArrayList<>();
        List<double[]> histogram = new ArrayList<>();
        long transactions = -1;
        long queries = -1;
        long errors = -1;
        long reconnects = 0;
        double seconds = -1;
        double avg = 0;
        double max = 0;
        boolean inHistogram = false;
        for (String line : output.split("\n")) {
            Matcher m;
            if (line.startsWith("Latency histogram")) {
                inHistogram = true;
            } else if (inHistogram && (m = HISTOGRAM_ROW.matcher(line)).matches()) {
                histogram.add(new double[] {Double.parseDouble(m.group(1)), Long.parseLong(m.group(2))});
            } else if (inHistogram && line.isBlank()) {
                inHistogram = false;
            } else if ((m = INTERVAL.matcher(line)).find()) {
                series.add(new ThroughputPoint(Double.parseDouble(m.group(1)), Double.parseDouble(m.group(2))));
            } else if ((m = TOTAL.matcher(line)).find()) {
                long value = Long.parseLong(m.group(2));
                switch (m.group(1)) {
                    case "transactions" -> transactions = value;
                    case "queries" -> queries = value;
                    case "ignored errors" -> errors = value;
                    default -> reconnects = value;
                }
            } else if ((m = TOTAL_TIME.matcher(line)).find()) {
                seconds = Double.parseDouble(m.group(1));
            } else if ((m = LATENCY.matcher(line)).find()) {
                if (m.group(1).equals("avg")) {
                    avg = Double.parseDouble(m.group(2));
                } else {
                    max = Double.parseDouble(m.group(2));
                }
            }
        }
        if (transactions < 0 || queries < 0 || errors < 0 || seconds <= 0) {
            throw new IllegalArgumentException("sysbench output lacks its totals (transactions, queries, errors, "
                + "total time); it ends with: " + tail(output));
        }
        LatencySummary latency = new LatencySummary(percentile(histogram, 50), percentile(histogram, 90),
            percentile(histogram, 95), percentile(histogram, 99), max, avg);
        return new SysbenchOutput(seconds, transactions, queries, errors, reconnects, latency, List.copyOf(series));
    }

    /**
     * The first histogram value at which the running count reaches p% of the events, rounded as
     * sysbench rounds it, so p95 equals the "95th percentile" it prints (0 without a histogram).
     */
    static double percentile(List<double[]> rows, double p) {
        long total = 0;
        for (double[] row : rows) {
            total += (long) row[1];
        }
        if (total == 0) {
            return 0;
        }
        long needed = (long) Math.floor(total * p / 100.0 + 0.5);
        long seen = 0;
        for (double[] row : rows) {
            seen += (long) row[1];
            if (seen >= needed) {
                return row[0];
            }
        }
        return rows.get(rows.size() - 1)[0];
    }

    private static String tail(String output) {
        String trimmed = output.strip();
        return trimmed.length() <= 400 ? trimmed : "..." + trimmed.substring(trimmed.length() - 400);
    }
}
