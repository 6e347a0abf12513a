package io.cleave.bench.compare;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/** The median of repeated measurements with their smallest and largest value. */
public record Spread(double median, double min, double max, int count) {

    public static Spread of(List<Double> values) {
        if (values.isEmpty()) {
            return new Spread(Double.NaN, Double.NaN, Double.NaN, 0);
        }
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        double median = n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
        return new Spread(median, sorted.get(0), sorted.get(n - 1), n);
    }

    /** "1234 (1200-1250)" with the given number format, or just the value for one measurement. */
    public String format(String pattern) {
        if (count == 0) {
            return "-";
        }
        String m = String.format(Locale.ROOT, pattern, median);
        return count == 1 ? m : m + " (" + String.format(Locale.ROOT, pattern, min) + "–"
            + String.format(Locale.ROOT, pattern, max) + ")";
    }
}
