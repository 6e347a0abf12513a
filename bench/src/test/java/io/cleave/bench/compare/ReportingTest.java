package io.cleave.bench.compare;

import static org.assertj.core.api.Assertions.assertThat;

import io.cleave.bench.crossshard.CrossShardFiles;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportingTest {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path dir;

    @Test
    void tableHasOneRowPerConfigurationWithMediansRangesAndTheLoad() {
        String md = SummaryTable.render(SampleComparisons.set("sample"), List.of("sample-throughput.png"), "results/");
        assertThat(md).contains("#### Sample comparison", "Command: `bench/cleave-bench.sh scaling --rounds 3`",
            "on 2 cores (Test CPU)", "Load average (1 min)", "Settings: data 4 tables x 1000 rows.",
            "![sample throughput](results/sample-throughput.png)",
            "- 1-shard home: 4,000 rows counted through the proxy");
        String direct = line(md, "| oltp_point_select | 1 instance, direct |");
        String proxy = line(md, "| oltp_point_select | 1 shard, proxy |");
        assertThat(direct).contains("| 1000 (990–1010) tps | 1 |", "| – | – |");
        assertThat(proxy).contains("| 820 (800–900) tps | 0.83 (0.80–0.89) |", "| 10.0 (10.0–10.0) | 100 (100–100) |",
            "| 1.10 (1.10–1.10) |", "| 1.00 / 3.00 / 4.00 |");
        assertThat(line(md, "| oltp_point_select | 2 shards, proxy |")).contains("1200 (1100–1300) tps");
        // errors are summed over the rounds; the load is the 1-minute figure at each run's start
        assertThat(proxy).endsWith("| 2 | 10 (10–10) % | 2.5 (1.5–3.5) |");
        assertThat(md).contains("Other processes used 10% of the host's CPU");
    }

    @Test
    void measurementsRoundTripAndRenderAgainIntoChartsAndADocument() throws IOException {
        ComparisonSet set = SampleComparisons.set("sample");
        Path out = dir.resolve("results/sample");
        ResultWriter.writeJson(set, out);
        ComparisonSet back = ResultWriter.readJson(out);
        assertThat(back).isEqualTo(set);
        assertThat(CrossShardFiles.holdsCrossShard(out)).as("report tells the two kinds of results apart").isFalse();

        Path doc = dir.resolve("RESULTS.md");
        Files.writeString(doc, "# Results\n\nProse stays.\n\n<!-- BEGIN cleave-bench:sample -->\nold\n"
            + "<!-- END cleave-bench:sample -->\n\nMore prose.\n");
        ResultWriter.render(back, out, doc);

        assertIsPng(out.resolve("sample-throughput.png"));
        assertIsPng(out.resolve("sample-latency.png"));
        assertThat(Files.readString(out.resolve("summary.md"))).contains("![sample latency](sample-latency.png)");
        String text = Files.readString(doc);
        assertThat(text).startsWith("# Results\n\nProse stays.\n\n<!-- BEGIN cleave-bench:sample -->\n#### Sample")
            .contains("![sample latency](results/sample/sample-latency.png)").doesNotContain("\nold\n")
            .endsWith("<!-- END cleave-bench:sample -->\n\nMore prose.\n");
    }

    @Test
    void aMissingSectionIsAppendedAndAPresentOneReplaced() {
        String once = ResultsDocument.splice("# Title\n", "a", "first");
        assertThat(once).isEqualTo("# Title\n\n<!-- BEGIN cleave-bench:a -->\nfirst\n<!-- END cleave-bench:a -->\n");
        String twice = ResultsDocument.splice(once + "tail\n", "a", "second\n");
        assertThat(twice).isEqualTo("# Title\n\n<!-- BEGIN cleave-bench:a -->\nsecond\n<!-- END cleave-bench:a -->\ntail\n");
        assertThat(ResultsDocument.splice(twice, "b", "other")).contains("second", "<!-- BEGIN cleave-bench:b -->\nother\n");
    }

    private static String line(String md, String prefix) {
        return md.lines().filter(l -> l.startsWith(prefix)).findFirst()
            .orElseThrow(() -> new AssertionError("no line starting with " + prefix + " in\n" + md));
    }

    private static void assertIsPng(Path png) throws IOException {
        byte[] bytes = Files.readAllBytes(png);
        assertThat(bytes.length).isGreaterThan(2_000);
        assertThat(Arrays.copyOf(bytes, 8)).isEqualTo(PNG_SIGNATURE);
    }
}
