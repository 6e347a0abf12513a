package io.cleave.bench.compare;

import io.cleave.bench.report.PngWriter;
import io.cleave.bench.report.ResultCharts;
import io.cleave.bench.tpcc.run.LatencySummary;
import io.cleave.bench.tpcc.run.RunResult;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.Styler;

/**
 * PNG charts of a comparison set: throughput over time with one line per configuration (its median
 * round), and latency percentiles with one bar per configuration; one panel per workload. For
 * TPC-C also the latency of every transaction type (median rounds).
 */
public final class ComparisonCharts {
    private static final int PANEL_WIDTH = 760;
    private static final int PANEL_HEIGHT = 420;

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private ComparisonCharts() {
    }

    /** Writes the charts into the directory; returns their file names. */
    public static List<String> write(ComparisonSet set, Path directory) throws IOException {
        Files.createDirectories(directory);
        List<XYChart> throughput = new ArrayList<>();
        List<CategoryChart> latency = new ArrayList<>();
        for (Comparison c : set.comparisons()) {
            throughput.add(throughput(c));
            latency.add(latency(c));
        }
        List<String> names = new ArrayList<>();
        names.add(save(throughput, directory, set.name() + "-throughput.png"));
        names.add(save(latency, directory, set.name() + "-latency.png"));
        for (Comparison c : set.comparisons()) {
            List<RunResult> tpcc = new ArrayList<>();
            for (Configuration conf : c.configurations()) {
                if (!c.of(conf).isEmpty() && c.medianRound(conf).result().tpcc() != null) {
                    tpcc.add(c.medianRound(conf).result().tpcc());
                }
            }
            if (!tpcc.isEmpty()) {
                String name = set.name() + "-" + c.workload() + "-latency-by-type.png";
                ResultCharts.writeLatency(tpcc, directory.resolve(name));
                names.add(name);
            }
        }
        return names;
    }

    static XYChart throughput(Comparison c) {
        XYChart chart = new XYChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT)
            .title(c.workload() + ": throughput over time (median round)")
            .xAxisTitle("seconds").yAxisTitle(c.unit()).build();
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setMarkerSize(3);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        for (Configuration conf : c.configurations()) {
            if (c.of(conf).isEmpty()) {
                continue;
            }
            List<ThroughputPoint> series = c.medianRound(conf).result().series();
            if (series.isEmpty()) {
                continue;
            }
            List<Double> x = new ArrayList<>();
            List<Double> y = new ArrayList<>();
            for (ThroughputPoint p : series) {
                x.add(p.endSeconds());
                y.add(p.value());
            }
            String name = String.format(Locale.ROOT, "%s (median %.0f %s)", conf.label(),
                c.spread(conf, m -> m.result().throughput()).median(), c.unit());
            chart.addSeries(name, x, y).setXYSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        }
        return chart;
    }

    static CategoryChart latency(Comparison c) {
        String what = c.unit().equals("tpmC") ? "new-order latency" : "latency per event";
        CategoryChart chart = new CategoryChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT)
            .title(c.workload() + ": " + what + " (median of rounds)").yAxisTitle("milliseconds").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        List<String> percentiles = List.of("p50", "p95", "p99");
        for (Configuration conf : c.configurations()) {
            if (c.of(conf).isEmpty()) {
                continue;
            }
            chart.addSeries(conf.label(), percentiles, List.of(median(c, conf, LatencySummary::p50),
                median(c, conf, LatencySummary::p95), median(c, conf, LatencySummary::p99)));
        }
        return chart;
    }

    private static double median(Comparison c, Configuration conf, ToDoubleFunction<LatencySummary> percentile) {
        return c.spread(conf, m -> percentile.applyAsDouble(m.result().latency())).median();
    }

    /** Panels two by two when they pair up, else one above the other. */
    private static String save(List<? extends Chart<?, ?>> panels, Path dir, String name) throws IOException {
        PngWriter.write(panels, panels.size() % 2 == 0 ? 2 : 1, PANEL_WIDTH, PANEL_HEIGHT, dir.resolve(name));
        return name;
    }
}
