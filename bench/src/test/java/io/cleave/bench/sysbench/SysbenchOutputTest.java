package io.cleave.bench.sysbench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

import io.cleave.bench.compare.ThroughputPoint;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

class SysbenchOutputTest {

    private static String resource(String name) throws IOException {
        try (InputStream in = SysbenchOutputTest.class.getResourceAsStream("/sysbench/" + name)) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    @Test
    void readsTotalsSeriesAndPercentilesOfARealRun() throws IOException {
        SysbenchOutput out = SysbenchOutput.parse(resource("oltp_read_write-run.txt"));

        assertThat(out.transactions()).isEqualTo(284);
        assertThat(out.queries()).isEqualTo(5680);
        assertThat(out.errors()).isZero();
        assertThat(out.reconnects()).isZero();
        assertThat(out.seconds()).isEqualTo(3.0181);
        assertThat(out.tps()).isCloseTo(94.10, within(0.01));
        assertThat(out.qps()).isCloseTo(1881.98, within(0.01));
        assertThat(out.tpsSeries()).containsExactly(new ThroughputPoint(1, 57.93), new ThroughputPoint(2, 108.07),
            new ThroughputPoint(3, 116.00));
        // The percentile computed from the histogram is the one sysbench printed itself.
        assertThat(out.latency().p95()).isCloseTo(47.47, within(0.005));
        assertThat(out.latency().p50()).isLessThan(out.latency().p95()).isGreaterThan(5.986);
        assertThat(out.latency().p99()).isGreaterThanOrEqualTo(out.latency().p95()).isLessThanOrEqualTo(110.659);
        assertThat(out.latency().max()).isEqualTo(110.91);
        assertThat(out.latency().mean()).isEqualTo(21.22);
    }

    @Test
    void percentilesRoundTheWaySysbenchDoes() {
        List<double[]> rows = List.of(new double[] {1.0, 2}, new double[] {2.0, 2}, new double[] {3.0, 1});
        assertThat(SysbenchOutput.percentile(rows, 50)).isEqualTo(2.0);   // 2.5 rounds to 3 events
        assertThat(SysbenchOutput.percentile(rows, 40)).isEqualTo(1.0);   // 2 events
        assertThat(SysbenchOutput.percentile(rows, 99)).isEqualTo(3.0);
        assertThat(SysbenchOutput.percentile(List.of(), 95)).isZero();
    }

    @Test
    void outputWithoutTotalsIsRefusedWithItsEnd() {
        assertThatThrownBy(() -> SysbenchOutput.parse("FATAL: unable to connect to MySQL server on host '127.0.0.1'"))
            .hasMessageContaining("lacks its totals").hasMessageContaining("unable to connect");
    }

    @Test
    void commandLineHasTheTargetTheWorkloadAndNoPasswordInMessages() {
        Sysbench sysbench = new Sysbench("/usr/bin/sysbench");
        List<String> command = sysbench.runCommand(new SysbenchTarget("127.0.0.1", 3307, "cleave", "s3cret", "sbtest"),
            new SysbenchOptions("oltp_point_select", 4, 1000, 8, "disable", false), Duration.ofSeconds(20));
        assertThat(command).startsWith("/usr/bin/sysbench", "oltp_point_select").endsWith("run")
            .contains("--mysql-port=3307", "--mysql-user=cleave", "--mysql-password=s3cret", "--mysql-db=sbtest",
                "--tables=4", "--table-size=1000", "--db-ps-mode=disable", "--auto-inc=off", "--threads=8", "--time=20",
                "--report-interval=1", "--histogram=on");
        assertThat(Sysbench.redacted(command)).contains("--mysql-password=***").doesNotContain("s3cret");
    }

    @Test
    void optionsAreCheckedUpFront() {
        assertThatThrownBy(() -> new SysbenchOptions("oltp; rm -rf", 1, 1, 1, "auto", true))
            .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new SysbenchOptions("oltp_insert", 1, 1, 1, "on", true))
            .hasMessageContaining("auto or disable");
        assertThatThrownBy(() -> new SysbenchOptions("oltp_insert", 0, 1, 1, "auto", true))
            .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void aMissingBinaryTellsHowToInstallIt() {
        assertThatThrownBy(() -> new Sysbench("/nonexistent/sysbench").version())
            .hasMessageContaining("apt-get install sysbench");
    }
}
