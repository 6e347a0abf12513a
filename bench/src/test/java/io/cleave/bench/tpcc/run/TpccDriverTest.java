package io.cleave.bench.tpcc.run;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import io.cleave.bench.tpcc.txn.TransactionInput;
import io.cleave.bench.tpcc.txn.TransactionType;
import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransactionRollbackException;
import java.time.Duration;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** The driver's bookkeeping with fake executors: no server. */
class TpccDriverTest {
    private static final Duration SECOND = Duration.ofSeconds(1);

    @Test
    void retriesDeadlocksAndReconnectsAfterALostConnection() throws SQLException {
        Queue<TransactionInput> ran = FakeTransactionExecutor.newLog();
        AtomicInteger opened = new AtomicInteger();
        FakeTransactionExecutor.Script script = (executor, call, input) -> {
            if (executor == 1 && call == 50) {
                return new SQLNonTransientConnectionException("Communications link failure", "08S01");
            }
            return call % 7 == 0 ? new SQLTransactionRollbackException("Deadlock found", "40001", 1213) : null;
        };
        RunOptions options = RunOptions.of(2, 2, SECOND).withReportInterval(Duration.ofMillis(250));

        RunResult result = TpccDriver.run(FakeTransactionExecutor.factory(script, ran, opened), options, "fake",
            IntervalListener.NONE);

        assertThat(opened.get()).isEqualTo(3);
        assertThat(result.reconnects()).isEqualTo(1);
        assertThat(result.errors()).hasSize(1);
        assertThat(result.errors().get(0).code()).isEqualTo("08S01");
        assertThat(result.retries()).containsOnlyKeys("1213");
        assertThat(result.totalRetries()).isPositive();
        assertThat(result.transaction(TransactionType.NEW_ORDER).completed()).isPositive();
        assertThat(result.tpmC()).isEqualTo(result.transaction(TransactionType.NEW_ORDER).completed() / (1 / 60.0));
        assertThat(result.series()).hasSize(4).noneMatch(s -> s.warmup());
        assertThat(result.transactions().stream().mapToLong(TransactionSummary::failed).sum()).isEqualTo(1);
    }

    @Test
    void givesUpAfterTheRetryLimitAndCountsTheError() throws SQLException {
        FakeTransactionExecutor.Script script = (executor, call, input) -> input.type() == TransactionType.PAYMENT
            ? new SQLException("Lock wait timeout exceeded", "HY000", 1205) : null;
        RunOptions options = RunOptions.of(1, 1, SECOND).withMaxRetries(2);

        RunResult result = TpccDriver.run(FakeTransactionExecutor.factory(script, FakeTransactionExecutor.newLog(),
            new AtomicInteger()), options, "fake", IntervalListener.NONE);

        TransactionSummary payment = result.transaction(TransactionType.PAYMENT);
        assertThat(payment.completed()).isZero();
        assertThat(payment.failed()).isPositive();
        assertThat(payment.retries()).isEqualTo(2 * payment.failed());
        assertThat(result.errors()).singleElement().satisfies(e -> {
            assertThat(e.code()).isEqualTo("1205");
            assertThat(e.count()).isEqualTo(payment.failed());
            assertThat(e.firstMessage()).startsWith("after 2 retries: Lock wait timeout");
        });
        assertThat(result.reconnects()).isZero();
    }

    @Test
    void terminalsSpreadOverTheWarehouses() throws SQLException {
        Queue<TransactionInput> ran = FakeTransactionExecutor.newLog();
        RunOptions options = RunOptions.of(3, 6, SECOND);

        TpccDriver.run(FakeTransactionExecutor.factory((e, c, i) -> null, ran, new AtomicInteger()), options, "fake",
            IntervalListener.NONE);

        Map<Integer, Long> byWarehouse = ran.stream()
            .collect(Collectors.groupingBy(TransactionInput::warehouse, Collectors.counting()));
        assertThat(byWarehouse).containsOnlyKeys(1, 2, 3);
        byWarehouse.values().forEach(n -> assertThat(n).isGreaterThan(ran.size() / 5));
    }

    @Test
    void onlyTheMeasurementWindowCounts() throws SQLException {
        Queue<TransactionInput> ran = FakeTransactionExecutor.newLog();
        RunOptions options = RunOptions.of(1, 2, Duration.ofMillis(600)).withWarmup(Duration.ofMillis(600))
            .withReportInterval(Duration.ofMillis(300));

        RunResult result = TpccDriver.run(FakeTransactionExecutor.factory((e, c, i) -> null, ran,
            new AtomicInteger()), options, "fake", IntervalListener.NONE);

        long counted = result.transactions().stream().mapToLong(TransactionSummary::completed).sum();
        assertThat(counted).isPositive().isLessThan(ran.size() * 3 / 4);
        assertThat(result.series()).extracting(IntervalSample::warmup).containsExactly(true, true, false, false);
        assertThat(result.series().get(1).endSeconds()).isEqualTo(0.0);
        assertThat(result.measuredSeconds()).isEqualTo(0.6);
        Map<TransactionType, Long> mix = ran.stream()
            .collect(Collectors.groupingBy(TransactionInput::type, Collectors.counting()));
        assertThat(mix.keySet()).containsExactlyInAnyOrder(TransactionType.values());
        assertThat(mix.get(TransactionType.NEW_ORDER)).isGreaterThan(mix.get(TransactionType.DELIVERY));
    }

    @Test
    void aStopEndsTheRunEarlyAndTheResultCountsTheTimeMeasured() throws Exception {
        RunOptions options = RunOptions.of(1, 2, Duration.ofSeconds(60)).withReportInterval(Duration.ofMillis(100));
        RunStop stop = new RunStop();
        Thread stopper = new Thread(() -> {
            try {
                Thread.sleep(400);
            } catch (InterruptedException e) {
                return;
            }
            stop.stop();
        });
        long started = System.nanoTime();
        stopper.start();

        RunResult result = TpccDriver.run(FakeTransactionExecutor.factory((e, c, i) -> null,
            FakeTransactionExecutor.newLog(), new AtomicInteger()), options, "fake", IntervalListener.NONE, stop);

        assertThat(System.nanoTime() - started).as("the run ends at the stop, not after 60 s")
            .isLessThan(Duration.ofSeconds(10).toNanos());
        assertThat(result.measuredSeconds()).isBetween(0.3, 10.0);
        long newOrders = result.transaction(TransactionType.NEW_ORDER).completed();
        assertThat(newOrders).isPositive();
        assertThat(result.tpmC()).isCloseTo(newOrders / (result.measuredSeconds() / 60), within(1e-6));
        assertThat(result.series().get(result.series().size() - 1).endSeconds())
            .isCloseTo(result.measuredSeconds(), within(1e-6));
    }

    @Test
    void aStopBeforeTheRunStartsEndsItAtOnce() throws SQLException {
        RunStop stop = new RunStop();
        stop.stop();

        RunResult result = TpccDriver.run(FakeTransactionExecutor.factory((e, c, i) -> null,
            FakeTransactionExecutor.newLog(), new AtomicInteger()), RunOptions.of(1, 1, Duration.ofSeconds(60)), "fake",
            IntervalListener.NONE, stop);

        assertThat(result.measuredSeconds()).isLessThan(5.0);
    }
}
