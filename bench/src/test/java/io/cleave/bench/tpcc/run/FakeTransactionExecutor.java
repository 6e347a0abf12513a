package io.cleave.bench.tpcc.run;

import io.cleave.bench.tpcc.txn.Outcome;
import io.cleave.bench.tpcc.txn.TransactionExecutor;
import io.cleave.bench.tpcc.txn.TransactionInput;
import java.sql.SQLException;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/** Takes about a millisecond per transaction and fails as its script says; records what it ran. */
final class FakeTransactionExecutor implements TransactionExecutor {

    /** Decides, per call, whether to fail: null means succeed. */
    @FunctionalInterface
    interface Script {
        SQLException failure(int executorNumber, int call, TransactionInput input);
    }

    private final int number;
    private final Script script;
    private final Queue<TransactionInput> ran;
    private int calls;

    FakeTransactionExecutor(int number, Script script, Queue<TransactionInput> ran) {
        this.number = number;
        this.script = script;
        this.ran = ran;
    }

    static ExecutorFactory factory(Script script, Queue<TransactionInput> ran, AtomicInteger opened) {
        return () -> new FakeTransactionExecutor(opened.incrementAndGet(), script, ran);
    }

    static Queue<TransactionInput> newLog() {
        return new ConcurrentLinkedQueue<>();
    }

    @Override
    public Outcome execute(TransactionInput input) throws SQLException {
        calls++;
        try {
            Thread.sleep(1);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        SQLException failure = script.failure(number, calls, input);
        if (failure != null) {
            throw failure;
        }
        ran.add(input);
        boolean rollback = input instanceof TransactionInput.NewOrder order && order.rollback();
        return rollback ? Outcome.ROLLED_BACK : Outcome.COMMITTED;
    }

    @Override
    public void abort() {
    }

    @Override
    public void close() {
    }
}
