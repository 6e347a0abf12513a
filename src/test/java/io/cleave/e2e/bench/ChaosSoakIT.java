package io.cleave.e2e.bench;

import static org.assertj.core.api.Assertions.assertThat;

import io.cleave.bench.chaos.CheckRound;
import io.cleave.bench.chaos.ChaosResult;
import io.cleave.bench.chaos.FaultEvent;
import io.cleave.bench.chaos.FaultSchedule;
import io.cleave.bench.cli.BenchCommand;
import io.cleave.e2e.support.TestServer;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The chaos soak end to end, as {@code bench/cleave-bench.sh chaos} runs it, on a small home for a
 * few minutes: the real binary's daemon and shards under bank transfers, upserts, TPC-C and
 * readers through the proxy, faults of every kind from a fixed seed, and every check after each.
 * Nothing acknowledged may be lost, nothing left open; the run must pass. {@code -Dchaos.duration=30m
 * -Dchaos.seed=S} runs it longer or on another schedule (the soak's own defaults are larger: see
 * bench/README.md).
 */
class ChaosSoakIT {
    private static final Path CLEAVE_JAR = Path.of(System.getProperty("cleave.jar", "../manager/target/cleave.jar"));

    @TempDir
    Path dir;

    @Test
    void aShortSoakWithFaultsOfEveryKindLosesNothingAndLeavesNothingOpen() throws Exception {
        Path out = dir.resolve("chaos");
        String duration = System.getProperty("chaos.duration", "60s");
        String rate = System.getProperty("chaos.faults-per-minute", "13");
        String seed = System.getProperty("chaos.seed", "199737");
        StringWriter err = new StringWriter();
        CommandLine cmd = BenchCommand.commandLine();
        cmd.setErr(new PrintWriter(err, true));
        int exit = cmd.execute("chaos", "--duration", duration, "--seed", seed, "--faults-per-minute", rate,
            "--shards", "2", "--max-shards", "3", "--warehouses", "2", "--branches-per-shard", "4",
            "--accounts-per-branch", "10", "--kv-keys", "400", "--transfer-clients", "4", "--upsert-clients", "2",
            "--tpcc-terminals", "2", "--readers", "2", "--buffer-pool", "256M", "--cleave-jar", CLEAVE_JAR.toString(),
            "--server-binary", TestServer.binary(), "--output", out.toString());

        ChaosResult r = ChaosResult.read(out);
        String summary = Files.readString(out.resolve("summary.md"));
        assertThat(err.toString()).as("stderr of cleave-bench").doesNotContain("error:");
        assertThat(exit).as("exit code of the soak (1: a check failed); its summary:\n%s", summary).isZero();
        assertThat(r.passed()).isTrue();
        assertThat(r.failure()).isNull();

        // Faults fired as scheduled, each logged; a good share of them injected, of several kinds.
        FaultSchedule schedule = FaultSchedule.read(out.resolve(FaultSchedule.FILE));
        assertThat(schedule).isEqualTo(FaultSchedule.generate(schedule.options()));
        assertThat(r.faults()).hasSize(schedule.faults().size());
        assertThat(r.injected()).as(summary).isGreaterThanOrEqualTo(8);
        assertThat(r.faults().stream().filter(f -> f.outcome() == FaultEvent.Outcome.INJECTED).map(FaultEvent::kind)
            .distinct().count()).as(summary).isGreaterThanOrEqualTo(5);
        assertThat(Files.readAllLines(out.resolve("faults.txt")))
            .filteredOn(line -> line.contains(" injected ") || line.contains(" refused ")).hasSize(r.faults().size());

        // A round before the first fault, one after each, one at the end: every check held in each.
        assertThat(r.rounds()).hasSize(r.faults().size() + 2).allMatch(CheckRound::passed);
        assertThat(r.rounds().get(0).results()).extracting(c -> c.name()).contains("what clients saw",
            "errors no fault explains", "reads through the proxy", "open transactions", "prepared XA branches", "backend connections", "client connections", "bank placement",
            "bank ledger", "bank balances", "upsert placement", "upsert values", "tpcc placement", "tpcc consistency");

        // The clients got work done through it all.
        assertThat(r.workload().get("transfers acknowledged")).isPositive();
        assertThat(r.workload().get("upserts acknowledged")).isPositive();
        assertThat(r.workload().get("TPC-C transactions")).isPositive();
        assertThat(r.workload().get("reads of acknowledged writes")).isPositive();
        assertThat(r.workload().get("invariant reads")).isPositive();
        assertThat(summary).contains("| fault | injected | refused |", "| bank ledger | " + r.rounds().size() + " of "
            + r.rounds().size() + " |", "--seed " + seed + " --replay");
    }
}
