package io.cleave.bench.report;

import io.cleave.bench.tpcc.run.IntervalSample;
import io.cleave.bench.tpcc.run.LatencySummary;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.txn.TransactionType;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.AnnotationLine;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/**
 * PNG charts of one or more results, one series per configuration (its label): throughput over
 * time, and latency percentiles per transaction type, so the table's story is seen at a glance.
 */
public final class ResultCharts {
    public static final String THROUGHPUT_PNG = "throughput.png";
    public static final String LATENCY_PNG = "latency.png";
    private static final int PANEL_WIDTH = 640;
    private static final int PANEL_HEIGHT = 480;

    private static final List<Percentile> PERCENTILES = List.of(
        new Percentile("p50", LatencySummary::p50),
        new Percentile("p95", LatencySummary::p95),
        new Percentile("p99", LatencySummary::p99));

    static {
        // Charts are drawn off-screen; without this a machine with no display fails to start AWT.
        System.setProperty("java.awt.headless", "true");
    }

    private ResultCharts() {
    }

    /** Writes throughput.png and latency.png into the directory and returns their paths. */
    public static List<Path> write(List<RunResult> results, Path directory) throws IOException {
        Files.createDirectories(directory);
        Path throughput = directory.resolve(THROUGHPUT_PNG);
        Path latency = directory.resolve(LATENCY_PNG);
        writeThroughput(results, throughput);
        writeLatency(results, latency);
        return List.of(throughput, latency);
    }

    public static void writeThroughput(List<RunResult> results, Path png) throws IOException {
        XYChart chart = new XYChartBuilder().width(1200).height(600).title("TPC-C throughput over time")
            .xAxisTitle("seconds since end of warm-up").yAxisTitle("tpmC (new orders per minute)").build();
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setMarkerSize(4);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        boolean anyWarmup = false;
        List<String> names = seriesNames(results);
        for (int i = 0; i < results.size(); i++) {
            List<IntervalSample> series = results.get(i).series();
            if (series.isEmpty()) {
                continue;
            }
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (IntervalSample s : series) {
                x.add(s.endSeconds());
                y.add(s.tpmC());
                anyWarmup |= s.warmup();
            }
            String name = String.format("%s (%.0f tpmC)", names.get(i), results.get(i).tpmC());
            chart.addSeries(name, x, y).setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        }
        if (anyWarmup) {
            chart.addAnnotation(new AnnotationLine(0, true, false));
        }
        PngWriter.write(List.of(chart), 1, chart.getWidth(), chart.getHeight(), png);
    }

    /** Three panels side by side (p50, p95, p99); in each, per transaction type one bar per configuration. */
    public static void writeLatency(List<RunResult> results, Path png) throws IOException {
        List<String> names = seriesNames(results);
        List<String> types = new ArrayList<>();
        for (TransactionType type : TransactionType.values()) {
            types.add(type.displayName());
        }
        List<CategoryChart> panels = new ArrayList<>();
        for (Percentile percentile : PERCENTILES) {
            CategoryChart chart = new CategoryChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT)
                .title(percentile.name() + " latency").yAxisTitle("milliseconds").build();
            chart.getStyler().setXAxisLabelRotation(30);
            chart.getStyler().setYAxisDecimalPattern("#,##0.#");
            chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
            chart.getStyler().setChartBackgroundColor(Color.WHITE);
            for (int i = 0; i < results.size(); i++) {
                List<Double> values = new ArrayList<>();
                for (TransactionType type : TransactionType.values()) {
                    values.add(percentile.value().applyAsDouble(latency(results.get(i), type)));
                }
                chart.addSeries(names.get(i), types, values);
            }
            panels.add(chart);
        }
        PngWriter.write(panels, panels.size(), PANEL_WIDTH, PANEL_HEIGHT, png);
    }

    private static LatencySummary latency(RunResult result, TransactionType type) {
        return result.transactions().stream().filter(t -> t.type() == type).findFirst()
            .map(t -> t.latency()).orElse(LatencySummary.EMPTY);
    }

    /** Labels made unique: the chart library keys series by name. */
    private static List<String> seriesNames(List<RunResult> results) {
        Set<String> used = new HashSet<>();
        List<String> names = new ArrayList<>();
        for (RunResult result : results) {
            String base = result.label() == null || result.label().isBlank() ? "run" : result.label();
            String name = base;
            for (int n = 2; !used.add(name); n++) {
                name = base + " (" + n + ")";
            }
            names.add(name);
        }
        return names;
    }

    private record Percentile(String name, ToDoubleFunction<LatencySummary> value) {
    }
}
