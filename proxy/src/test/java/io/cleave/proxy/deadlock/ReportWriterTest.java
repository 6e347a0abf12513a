package io.cleave.proxy.deadlock;

import org.junit.jupiter.api.Test;

import java.time.Instant;

import static org.assertj.core.api.Assertions.assertThat;

class ReportWriterTest {

    @Test
    void theReportNumbersTheCycleFromTheVictimAndShowsStatementShapesOnly() {
        Shards s = new Shards(2);
        s.client(5, 11, 21);
        TrackedTransaction victim = s.client(6, 12, 22);
        s.waits(0, 11, 12).waits(1, 22, 21);
        s.transaction(0, 11, 3, "UPDATE accounts SET balance = balance + 1 WHERE id = 31")
                .transaction(1, 22, 1, "UPDATE accounts SET balance = balance + 1 WHERE id = 130 -- 'secret'");
        Snapshot snapshot = s.snapshot();
        WaitForGraph.Cycle cycle = WaitForGraph.of(snapshot).cycles().get(0);

        DeadlockReport report = ReportWriter.write(cycle, snapshot, snapshot.view(victim),
                Instant.parse("2025-01-02T03:04:05Z"));

        assertThat(report.victim()).isEqualTo(1);
        assertThat(report.shards()).containsExactly(0, 1);
        assertThat(report.transactions()).extracting(DeadlockReport.Party::connectionId).containsExactly(6L, 5L);
        DeadlockReport.Party first = report.transactions().get(0);
        assertThat(first.shards()).containsExactly(0, 1);
        assertThat(first.weight()).isEqualTo(2);
        assertThat(first.waits()).singleElement().satisfies(w -> {
            assertThat(w.shard()).isEqualTo(1);
            assertThat(w.waitsFor()).isEqualTo(2);
            assertThat(w.lock()).isEqualTo("X record lock on `d`.`t` index PRIMARY");
            assertThat(w.statement()).isEqualTo("UPDATE accounts SET balance = balance + ? WHERE id = ?");
        });
        assertThat(report.text()).startsWith("""
                ------------------------
                LATEST DETECTED DEADLOCK (across shards 0, 1)
                ------------------------
                2025-01-02T03:04:05Z
                *** (1) TRANSACTION of client connection 6 (user app), holding shards 0, 1, weight 2
                *** (1) WAITING on shard 1 for X record lock on `d`.`t` index PRIMARY, held by (2):
                UPDATE accounts SET balance = balance + ? WHERE id = ?
                *** (2) TRANSACTION of client connection 5 (user app), holding shards 0, 1, weight 4
                *** (2) WAITING on shard 0 for X record lock on `d`.`t` index PRIMARY, held by (1):
                UPDATE accounts SET balance = balance + ? WHERE id = ?
                *** WE ROLL BACK TRANSACTION (1) on every shard it holds""");
        assertThat(report.text()).doesNotContain("130").doesNotContain("secret").doesNotContain("31 ");
    }

    @Test
    void aPoolLineIsShownWithWhoHoldsItsConnections() {
        Shards s = new Shards(2);
        TrackedTransaction a = s.client(1, 11, 0);
        s.client(2, 12, 22);
        s.waits(0, 12, 11).line(0, 1, 1, a);
        Snapshot snapshot = s.snapshot();
        WaitForGraph.Cycle cycle = WaitForGraph.of(snapshot).cycles().get(0);

        DeadlockReport report = ReportWriter.write(cycle, snapshot, snapshot.view(a), Instant.EPOCH);

        assertThat(report.text())
                .contains("*** (1) WAITING for a backend connection to shard 1, held by (2)")
                .contains("*** (2) LINE for a backend connection to shard 1 on proxy thread 0: every connection is held by (3)")
                .contains("*** (3) WAITING on shard 0 for X record lock");
    }
}
