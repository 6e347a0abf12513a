package io.cleave.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ChaosReportTest {

    private static ChaosResult result(boolean passed) {
        ChaosOptions o = FaultScheduleTest.options(5, 60_000, "all");
        List<FaultEvent> faults = List.of(
            new FaultEvent(1, FaultKind.SHARD_KILL, 10_000, 10_200, "2026-01-01T00:00:10Z", FaultEvent.Outcome.INJECTED,
                "SIGKILL to shard 1 (pid 7)", 12_000),
            new FaultEvent(2, FaultKind.SCALE_UP, 20_000, 20_500, "2026-01-01T00:00:20Z", FaultEvent.Outcome.REFUSED,
                "scale to 5 shards: moves run", 20_600),
            new FaultEvent(3, FaultKind.SHARD_KILL, 30_000, 30_100, "2026-01-01T00:00:30Z", FaultEvent.Outcome.INJECTED,
                "SIGKILL to shard 0 (pid 8)", 31_000));
        CheckResult ledger = CheckResult.of("bank ledger", "12 acknowledged transfers applied whole",
            passed ? List.of() : List.of("transfer 9 (1/1 -> 1/2, 5), acknowledged at 3.0 s, is not in the data whole"));
        List<CheckRound> rounds = List.of(
            new CheckRound(0, 0, "", 500, 400, List.of(CheckResult.of("bank ledger", "0 acknowledged", List.of()))),
            new CheckRound(1, 1, "shard-kill", 12_100, 300, List.of(ledger)));
        return new ChaosResult(o, "2026-01-01T00:00:00Z", 75.5, "embedded MariaDB 11.4.5", faults, rounds,
            Map.of("transfers acknowledged", 12L), Map.of("bank 2013", 3L), Map.of("shard-kill 2013", 3L), 12.4, 80.1,
            "1.00 0.50 0.20", "2.00 1.00 0.50", passed, passed ? null : "check round 1 after fault #1 (shard-kill): ...");
    }

    @Test
    void theSummaryCountsFaultsByKindAndChecksByRound() {
        String md = ChaosReport.markdown(result(true));
        assertThat(md).startsWith("Seed 5, every check held: faults for 60 s, 76 s in all with the checks;")
            .contains("| shard-kill | 2 | 0 |", "| scale-up | 0 | 1 |", "| **all** | **2** | 1 |",
                "| bank ledger | 2 of 2 | 12 acknowledged transfers applied whole |", "transfers acknowledged 12",
                "shard-kill 2013 × 3", "other processes 12%", "`bench/cleave-bench.sh chaos --seed 5 --replay`")
            .doesNotContain("Failed");
    }

    @Test
    void aFailedRunShowsWhatDifferedInItsLastRound() {
        String md = ChaosReport.markdown(result(false));
        assertThat(md).contains("**a check failed**", "**Failed:** check round 1 after fault #1 (shard-kill)",
            "- bank ledger: 12 acknowledged transfers applied whole",
            "  - transfer 9 (1/1 -> 1/2, 5), acknowledged at 3.0 s, is not in the data whole",
            "| bank ledger | 1 of 2 |");
    }

    @Test
    void resultsReadBackAsWritten(@TempDir Path dir) throws Exception {
        ChaosResult r = result(false);
        r.write(dir);
        ChaosResult read = ChaosResult.read(dir);
        assertThat(read).isEqualTo(r);
        assertThat(read.injected(FaultKind.SHARD_KILL)).isEqualTo(2);
        assertThat(read.refused(FaultKind.SCALE_UP)).isEqualTo(1);
        assertThat(read.rounds().get(1).passed()).isFalse();
    }
}
