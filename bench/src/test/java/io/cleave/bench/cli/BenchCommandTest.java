package io.cleave.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class BenchCommandTest {
    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    private int execute(String... args) {
        CommandLine cmd = BenchCommand.commandLine();
        cmd.setErr(new PrintWriter(err));
        cmd.setOut(new PrintWriter(new StringWriter()));
        return cmd.execute(args);
    }

    private String help(String... args) {
        StringWriter out = new StringWriter();
        CommandLine cmd = BenchCommand.commandLine();
        cmd.setOut(new PrintWriter(out));
        assertThat(cmd.execute(args)).isZero();
        return out.toString();
    }

    @Test
    void helpListsTheSubcommands() {
        assertThat(help("--help")).contains("tpcc", "proxy-overhead", "scaling", "report");
        assertThat(help("tpcc", "--help")).contains("load", "run", "check", "chart");
        assertThat(help("scaling", "--help")).contains("--shards", "--warehouses", "--buffer-pool", "--rounds");
        assertThat(help("proxy-overhead", "--help")).contains("--workloads", "--ps-mode", "--doc");
    }

    @Test
    void checkNeedsOneKindOfTarget() {
        assertThat(execute("tpcc", "check")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("--url").contains("--shard-url");
        assertThat(execute("tpcc", "check", "--url", "jdbc:mysql://a/t", "--shard-url", "jdbc:mysql://b/t"))
            .isEqualTo(CommandLine.ExitCode.USAGE);
    }

    @Test
    void runNeedsAUrl() {
        assertThat(execute("tpcc", "run", "--warehouses", "1")).isEqualTo(CommandLine.ExitCode.USAGE);
    }

    @Test
    void unreachableTargetIsAFailureNotACrash() {
        assertThat(execute("tpcc", "check", "--url", "jdbc:mysql://127.0.0.1:1/tpcc?connectTimeout=500"))
            .isEqualTo(BenchCommand.EXIT_FAILURE);
        assertThat(err.toString()).startsWith("error: ");
    }

    @Test
    void chartWithAMissingResultFails() {
        assertThat(execute("tpcc", "chart", "--output", dir.toString(), dir.resolve("nope.json").toString()))
            .isEqualTo(BenchCommand.EXIT_FAILURE);
    }

    @Test
    void tpccAndSysbenchDoNotShareAScalingRun() {
        assertThat(execute("scaling", "--workload", "tpcc,oltp_read_write")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("two commands");
    }

    @Test
    void aMissingCleaveBinaryIsNamed() {
        assertThat(execute("scaling", "--cleave-jar", dir.resolve("no.jar").toString(), "--shards", "2",
            "--warehouses", "2", "--output", dir.toString())).isEqualTo(BenchCommand.EXIT_FAILURE);
        assertThat(err.toString()).contains("no.jar is missing");
    }
}
