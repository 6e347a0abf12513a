package io.cleave.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

class TpccCommandTest {
    @TempDir
    Path dir;

    private final StringWriter err = new StringWriter();

    private int execute(String... args) {
        CommandLine cmd = TpccCommand.commandLine();
        cmd.setErr(new PrintWriter(err));
        cmd.setOut(new PrintWriter(new StringWriter()));
        return cmd.execute(args);
    }

    @Test
    void helpListsTheSubcommands() {
        StringWriter out = new StringWriter();
        CommandLine cmd = TpccCommand.commandLine();
        cmd.setOut(new PrintWriter(out));
        assertThat(cmd.execute("--help")).isZero();
        assertThat(out.toString()).contains("load", "run", "check", "chart");
    }

    @Test
    void checkNeedsOneKindOfTarget() {
        assertThat(execute("check")).isEqualTo(CommandLine.ExitCode.USAGE);
        assertThat(err.toString()).contains("--url").contains("--shard-url");
        assertThat(execute("check", "--url", "jdbc:mysql://a/t", "--shard-url", "jdbc:mysql://b/t"))
            .isEqualTo(CommandLine.ExitCode.USAGE);
    }

    @Test
    void runNeedsAUrl() {
        assertThat(execute("run", "--warehouses", "1")).isEqualTo(CommandLine.ExitCode.USAGE);
    }

    @Test
    void unreachableTargetIsAFailureNotACrash() {
        assertThat(execute("check", "--url", "jdbc:mysql://127.0.0.1:1/tpcc?connectTimeout=500"))
            .isEqualTo(TpccCommand.EXIT_FAILURE);
        assertThat(err.toString()).startsWith("error: ");
    }

    @Test
    void chartWithAMissingResultFails() {
        assertThat(execute("chart", "--output", dir.toString(), dir.resolve("nope.json").toString()))
            .isEqualTo(TpccCommand.EXIT_FAILURE);
    }
}
