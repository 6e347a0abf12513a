package io.cleave.bench.chaos;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Samples of a Prometheus text page: each line's metric name, labels and value. */
final class PrometheusText {

    /** One sample line. */
    record Sample(String name, Map<String, String> labels, double value) {
    }

    private final List<Sample> samples;

    private PrometheusText(List<Sample> samples) {
        this.samples = samples;
    }

    static PrometheusText parse(String text) {
        List<Sample> out = new ArrayList<>();
        for (String line : text.split("\n")) {
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int brace = line.indexOf('{');
            int space = line.lastIndexOf(' ');
            if (space < 0) {
                continue;
            }
            Map<String, String> labels = new LinkedHashMap<>();
            String name;
            if (brace >= 0 && brace < space) {
                name = line.substring(0, brace);
                String body = line.substring(brace + 1, line.lastIndexOf('}'));
                for (String pair : body.split(",")) {
                    int eq = pair.indexOf('=');
                    if (eq > 0) {
                        labels.put(pair.substring(0, eq).trim(), pair.substring(eq + 1).trim().replace("\"", ""));
                    }
                }
            } else {
                name = line.substring(0, space);
            }
            try {
                out.add(new Sample(name.trim(), labels, Double.parseDouble(line.substring(space + 1).trim())));
            } catch (NumberFormatException e) {
                // Not a sample line (or a value like NaN written otherwise): not one the checks read.
            }
        }
        return new PrometheusText(out);
    }

    /** The sum of a metric's samples whose labels include {@code filter}. */
    double sum(String name, Map<String, String> filter) {
        double sum = 0;
        for (Sample s : samples) {
            if (s.name().equals(name) && s.labels().entrySet().containsAll(filter.entrySet())) {
                sum += s.value();
            }
        }
        return sum;
    }

    /** Per value of {@code label}, the sum of a metric's samples whose labels include {@code filter}. */
    Map<String, Double> byLabel(String name, String label, Map<String, String> filter) {
        Map<String, Double> out = new LinkedHashMap<>();
        for (Sample s : samples) {
            if (s.name().equals(name) && s.labels().entrySet().containsAll(filter.entrySet()) && s.labels().containsKey(label)) {
                out.merge(s.labels().get(label), s.value(), Double::sum);
            }
        }
        return out;
    }
}
