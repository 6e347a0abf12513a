package io.cleave.bench.crossshard;

import io.cleave.bench.report.PngWriter;
import io.cleave.bench.tpcc.run.LatencySummary;
import java.awt.Color;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.style.Styler;

/**
 * The chart of the transfers: COMMIT latency percentiles with one bar per k, and beside it the
 * whole transaction's (medians of the rounds).
 */
public final class CrossShardCharts {
    private static final int PANEL_WIDTH = 640;
    private static final int PANEL_HEIGHT = 420;

    static {
        System.setProperty("java.awt.headless", "true");
    }

    private CrossShardCharts() {
    }

    /** Writes the chart into the directory; returns its file name, or none when nothing was measured. */
    public static List<String> write(CrossShardSet set, Path directory) throws IOException {
        Files.createDirectories(directory);
        if (set.transfers().isEmpty()) {
            return List.of();
        }
        List<TransferSummary> summaries = TransferSummary.of(set.transfers());
        List<CategoryChart> panels = List.of(
            panel("COMMIT latency by shards per transaction", summaries, TransferSummary::commit),
            panel("Whole transaction latency by shards per transaction", summaries, TransferSummary::transaction));
        String name = set.name() + "-commit-latency.png";
        PngWriter.write(panels, panels.size(), PANEL_WIDTH, PANEL_HEIGHT, directory.resolve(name));
        return List.of(name);
    }

    static CategoryChart panel(String title, List<TransferSummary> summaries,
                               Function<TransferSummary, LatencySummary> latency) {
        CategoryChart chart = new CategoryChartBuilder().width(PANEL_WIDTH).height(PANEL_HEIGHT)
            .title(title + " (median of rounds)").yAxisTitle("milliseconds").build();
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideS);
        chart.getStyler().setChartBackgroundColor(Color.WHITE);
        chart.getStyler().setYAxisDecimalPattern("#,##0.##");
        List<String> percentiles = List.of("p50", "p95", "p99");
        for (TransferSummary s : summaries) {
            LatencySummary l = latency.apply(s);
            List<Double> values = new ArrayList<>(List.of(l.p50(), l.p95(), l.p99()));
            chart.addSeries("k=" + s.k() + (s.k() == 1 ? " shard" : " shards"), percentiles, values);
        }
        return chart;
    }
}
