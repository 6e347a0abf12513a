package io.cleave.bench.cuts;

import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * What the daemon's cut meters counted over one run: two /metrics pages, before and after. The
 * longest wait of a commit behind a cut is read from its histogram's buckets (an upper bound: the
 * smallest bucket every wait of the run fits in), so no earlier run's maximum leaks into it.
 */
public record CutMetricsDelta(long cuts, long windows, double windowMeanMillis, long commitWaits,
                              double longestCommitWaitMillis, double cutWaitP99Millis, long heldAnswers) {

    static final String COMMIT_WAIT = "cleave_proxy_cut_commit_wait_seconds";
    static final String CUT_WAIT = "cleave_proxy_cut_wait_seconds";
    static final String WINDOW = "cleave_proxy_cut_window_seconds";

    public static CutMetricsDelta between(String before, String after) {
        long windows = Math.round(value(after, WINDOW + "_count") - value(before, WINDOW + "_count"));
        double windowSeconds = value(after, WINDOW + "_sum") - value(before, WINDOW + "_sum");
        return new CutMetricsDelta(
            Math.round(value(after, "cleave_proxy_cuts_total{outcome=\"taken\"") - value(before,
                "cleave_proxy_cuts_total{outcome=\"taken\"")),
            windows, windows == 0 ? 0 : 1000 * windowSeconds / windows,
            Math.round(value(after, COMMIT_WAIT + "_count") - value(before, COMMIT_WAIT + "_count")),
            1000 * percentileBound(before, after, COMMIT_WAIT, 1.0),
            1000 * percentileBound(before, after, CUT_WAIT, 0.99),
            Math.round(value(after, "cleave_proxy_cut_held_answers_total") - value(before,
                "cleave_proxy_cut_held_answers_total")));
    }

    /** The value of the first series whose line starts with {@code prefix} (0 when there is none). */
    static double value(String page, String prefix) {
        for (String line : page.split("\n")) {
            if (line.startsWith(prefix) && (line.charAt(prefix.length()) == ' ' || line.charAt(prefix.length()) == ','
                || line.charAt(prefix.length()) == '}' || line.charAt(prefix.length()) == '{')) {
                return Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return 0;
    }

    /**
     * The smallest bucket bound (seconds) under which the fraction {@code q} of the run's
     * observations fall; 0 when there were none.
     */
    static double percentileBound(String before, String after, String histogram, double q) {
        Map<Double, Double> was = buckets(before, histogram);
        Map<Double, Double> now = buckets(after, histogram);
        double total = now.getOrDefault(Double.POSITIVE_INFINITY, 0.0) - was.getOrDefault(Double.POSITIVE_INFINITY, 0.0);
        if (total <= 0) {
            return 0;
        }
        for (Map.Entry<Double, Double> e : now.entrySet()) {
            double n = e.getValue() - was.getOrDefault(e.getKey(), 0.0);
            if (n >= q * total - 1e-9) {
                return e.getKey();
            }
        }
        return Double.POSITIVE_INFINITY;
    }

    /** Cumulative bucket counts by upper bound. */
    private static Map<Double, Double> buckets(String page, String histogram) {
        Map<Double, Double> out = new TreeMap<>();
        String prefix = histogram + "_bucket{";
        for (String line : page.split("\n")) {
            if (!line.startsWith(prefix)) {
                continue;
            }
            int le = line.indexOf("le=\"");
            String bound = line.substring(le + 4, line.indexOf('"', le + 4));
            double upper = bound.toLowerCase(Locale.ROOT).contains("inf") ? Double.POSITIVE_INFINITY : Double.parseDouble(bound);
            out.put(upper, Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
        }
        return out;
    }
}
