package io.cleave.manager.cli;

import io.cleave.manager.admin.AdminClient;
import io.cleave.proxy.server.InDoubtResolution;
import io.cleave.proxy.server.XaRecovery.Decision;
import io.cleave.proxy.server.XaRecovery.InDoubtBranch;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** How in-doubt transactions are printed and how the daemon's answers become exit codes. */
class InDoubtOutputTest {

    private static final List<InDoubtBranch> BRANCHES = List.of(
            new InDoubtBranch(1, "cleave:0:abc:4:1", 0, Decision.COMMIT),
            new InDoubtBranch(2, "cleave:1:abc:5:9", 1, Decision.COORDINATOR_UNREACHABLE));

    private static String printed(java.util.function.Consumer<PrintWriter> print) {
        StringWriter s = new StringWriter();
        try (PrintWriter out = new PrintWriter(s)) {
            print.accept(out);
        }
        return s.toString().replace(System.lineSeparator(), "\n");
    }

    @Test
    void theTableHasAHeaderAndARowPerBranch() {
        assertThat(printed(out -> InDoubtTable.print(BRANCHES, out))).isEqualTo("""
                SHARD  COORDINATOR  RECOVERY                 XID
                1      0            COMMIT                   cleave:0:abc:4:1
                2      1            COORDINATOR_UNREACHABLE  cleave:1:abc:5:9
                """);
    }

    @Test
    void statusCountsTheBranchesThenListsThem() {
        assertThat(printed(out -> StatusCommand.printInDoubt(BRANCHES, out))).isEqualTo("""

                in-doubt transaction branches: 2 (see 'cleave xa list'; 'cleave xa --help' tells how to settle them)
                  shard 1: cleave:0:abc:4:1 (coordinator shard 0, recovery: COMMIT)
                  shard 2: cleave:1:abc:5:9 (coordinator shard 1, recovery: COORDINATOR_UNREACHABLE)
                """);
        assertThat(printed(out -> StatusCommand.printInDoubt(List.of(), out)))
                .isEqualTo("\nin-doubt transaction branches: 0\n");
        assertThat(printed(out -> StatusCommand.printInDoubt(null, out)))
                .isEqualTo("\nin-doubt transactions: unknown (the proxy is not running)\n");
    }

    @Test
    void statusShowsTheLatestDeadlockAcrossShardsAsItWasLogged() {
        io.cleave.proxy.deadlock.DeadlockReport report = new io.cleave.proxy.deadlock.DeadlockReport(
                "2025-01-02T03:04:05Z", List.of(0, 1), List.of(), 2, "LATEST DETECTED DEADLOCK (across shards 0, 1)\n...");
        assertThat(printed(out -> StatusCommand.printLatestDeadlock(report, out))).isEqualTo("""

                latest deadlock across shards: 2025-01-02T03:04:05Z, shards [0, 1], transaction (2) rolled back
                LATEST DETECTED DEADLOCK (across shards 0, 1)
                ...
                """);
        assertThat(printed(out -> StatusCommand.printLatestDeadlock(null, out)))
                .isEqualTo("\nlatest deadlock across shards: none since the proxy started\n");
    }

    @Test
    void aResolutionSaysWhatWasDoneWhereAndWhetherItWasForced() {
        assertThat(XaResolution.describe(new InDoubtResolution("cleave:0:abc:4:1", true,
                InDoubtResolution.Outcome.SETTLED, false, List.of(1, 2), List.of(), null)))
                .isEqualTo("committed cleave:0:abc:4:1 on shards 1, 2");
        assertThat(XaResolution.describe(new InDoubtResolution("cleave:0:abc:4:1", false,
                InDoubtResolution.Outcome.SETTLED, true, List.of(2), List.of(), null)))
                .isEqualTo("rolled back cleave:0:abc:4:1 on shard 2 (forced against the coordinator's recorded decision)");
    }

    @Test
    void theDaemonsAnswersMapToExitCodes() {
        assertThat(ExitCodes.of(new AdminClient.DaemonAnswer(404, "unknown"))).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(ExitCodes.of(new AdminClient.DaemonAnswer(409, "refused"))).isEqualTo(ExitCodes.REFUSED);
        assertThat(ExitCodes.of(new AdminClient.DaemonAnswer(503, "proxy down"))).isEqualTo(ExitCodes.NOT_READY);
        assertThat(ExitCodes.of(new AdminClient.DaemonAnswer(502, "a shard failed"))).isEqualTo(ExitCodes.FAILED);
    }
}
