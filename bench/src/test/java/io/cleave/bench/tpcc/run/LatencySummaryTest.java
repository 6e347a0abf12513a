package io.cleave.bench.tpcc.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cleave.bench.tpcc.txn.Outcome;
import io.cleave.bench.tpcc.txn.TransactionType;
import org.HdrHistogram.Histogram;
import org.junit.jupiter.api.Test;

class LatencySummaryTest {

    @Test
    void percentilesOfOneToOneThousandMilliseconds() {
        Histogram micros = LatencySummary.newMicrosHistogram();
        for (int ms = 1; ms <= 1000; ms++) {
            micros.recordValue(ms * 1000L);
        }
        LatencySummary s = LatencySummary.ofMicros(micros);
        // Three significant digits: values are exact to within 0.1%.
        assertThat(s.p50()).isCloseTo(500, within(1.0));
        assertThat(s.p90()).isCloseTo(900, within(1.0));
        assertThat(s.p95()).isCloseTo(950, within(1.0));
        assertThat(s.p99()).isCloseTo(990, within(1.0));
        assertThat(s.max()).isCloseTo(1000, within(1.0));
        assertThat(s.mean()).isCloseTo(500.5, within(1.0));
    }

    @Test
    void emptyHistogramGivesZeros() {
        assertThat(LatencySummary.ofMicros(LatencySummary.newMicrosHistogram())).isEqualTo(LatencySummary.EMPTY);
    }

    @Test
    void terminalsMergeCountsLatenciesRetriesAndErrors() {
        TerminalStats a = new TerminalStats();
        TerminalStats b = new TerminalStats();
        a.completed(TransactionType.NEW_ORDER, Outcome.COMMITTED, 1_000);
        a.completed(TransactionType.NEW_ORDER, Outcome.ROLLED_BACK, 3_000);
        b.completed(TransactionType.NEW_ORDER, Outcome.COMMITTED, 2_000);
        b.completed(TransactionType.PAYMENT, Outcome.COMMITTED, 500);
        a.retried(TransactionType.NEW_ORDER, "1213");
        b.retried(TransactionType.PAYMENT, "1213");
        b.retried(TransactionType.PAYMENT, "1205");
        a.failed(TransactionType.PAYMENT, "1062", "23000", "first");
        b.failed(TransactionType.PAYMENT, "1062", "23000", "second");
        b.reconnected();

        TerminalStats total = new TerminalStats();
        a.addTo(total);
        b.addTo(total);

        TransactionSummary newOrder = total.summaries().get(TransactionType.NEW_ORDER.ordinal());
        assertThat(newOrder.completed()).isEqualTo(3);
        assertThat(newOrder.rolledBack()).isEqualTo(1);
        assertThat(newOrder.retries()).isEqualTo(1);
        assertThat(newOrder.latency().p50()).isCloseTo(2.0, within(0.01));
        assertThat(newOrder.latency().max()).isCloseTo(3.0, within(0.01));
        TransactionSummary payment = total.summaries().get(TransactionType.PAYMENT.ordinal());
        assertThat(payment.failed()).isEqualTo(2);
        assertThat(payment.retries()).isEqualTo(2);
        assertThat(total.retriesByCode()).containsEntry("1213", 2L).containsEntry("1205", 1L);
        assertThat(total.errors()).containsExactly(new ErrorStat("1062", "23000", 2, "first"));
        assertThat(total.reconnects()).isEqualTo(1);
    }
}
