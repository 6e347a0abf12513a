package io.cleave.bench.report;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResultChartsTest {
    private static final byte[] PNG_SIGNATURE = {(byte) 0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};

    @TempDir
    Path dir;

    @Test
    void writesBothChartsForSeveralConfigurations() throws IOException {
        List<Path> written = ResultCharts.write(List.of(SampleResults.of("direct", 30_000),
            SampleResults.of("proxy", 27_000), SampleResults.of("4 shards", 55_000)), dir);

        assertThat(written).containsExactly(dir.resolve("throughput.png"), dir.resolve("latency.png"));
        for (Path png : written) {
            assertIsPng(png);
        }
    }

    @Test
    void oneRunAndRepeatedLabelsStillMakeCharts() throws IOException {
        ResultCharts.write(List.of(SampleResults.of("same", 1_000), SampleResults.of("same", 2_000)), dir);
        assertIsPng(dir.resolve("throughput.png"));
        assertIsPng(dir.resolve("latency.png"));
    }

    private static void assertIsPng(Path png) throws IOException {
        byte[] bytes = Files.readAllBytes(png);
        assertThat(bytes.length).isGreaterThan(2_000);
        assertThat(Arrays.copyOf(bytes, 8)).isEqualTo(PNG_SIGNATURE);
    }
}
