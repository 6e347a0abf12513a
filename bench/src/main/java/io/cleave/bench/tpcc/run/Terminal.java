package io.cleave.bench.tpcc.run;

import io.cleave.bench.tpcc.data.NURandConstants;
import io.cleave.bench.tpcc.data.TpccRandom;
import io.cleave.bench.tpcc.txn.InputGenerator;
import io.cleave.bench.tpcc.txn.Outcome;
import io.cleave.bench.tpcc.txn.TransactionDeck;
import io.cleave.bench.tpcc.txn.TransactionExecutor;
import io.cleave.bench.tpcc.txn.TransactionInput;
import io.cleave.bench.tpcc.txn.TransactionType;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One emulated terminal on its own thread and connection, submitting transactions back to back
 * (no keying or think time). With at least as many terminals as warehouses each terminal keeps
 * one home warehouse, spread evenly; with fewer, each transaction draws its home warehouse.
 */
final class Terminal implements Runnable {
    private static final Logger log = LoggerFactory.getLogger(Terminal.class);
    private static final long RECONNECT_PAUSE_MILLIS = 500;

    private final ExecutorFactory factory;
    private final RunOptions options;
    private final LiveCounters live;
    private final CountDownLatch ready;
    private final CountDownLatch go;
    private final TpccRandom random;
    private final TransactionDeck deck;
    private final InputGenerator inputs;
    private final int fixedHome;
    private final TerminalStats stats = new TerminalStats();
    private volatile MeasurementWindow window;
    private volatile SQLException startFailure;
    /** Volatile: abort() reads it from the driver thread. */
    private volatile TransactionExecutor transactions;

    Terminal(int index, ExecutorFactory factory, RunOptions options, NURandConstants constants, LiveCounters live,
             CountDownLatch ready, CountDownLatch go) {
        this.factory = factory;
        this.options = options;
        this.live = live;
        this.ready = ready;
        this.go = go;
        this.random = new TpccRandom(options.seed() * 1_000_003L + index);
        this.deck = new TransactionDeck(random);
        this.inputs = new InputGenerator(random, options.warehouses(), constants);
        this.fixedHome = options.connections() >= options.warehouses() ? index % options.warehouses() + 1 : 0;
    }

    void start(MeasurementWindow measurementWindow) {
        this.window = measurementWindow;
    }

    SQLException startFailure() {
        return startFailure;
    }

    TerminalStats stats() {
        return stats;
    }

    /** Closes the connection from outside, to unblock a terminal stuck past the end of the run. */
    void abort() {
        TransactionExecutor current = transactions;
        if (current != null) {
            current.abort();
        }
    }

    @Override
    public void run() {
        try {
            transactions = factory.open();
        } catch (SQLException e) {
            startFailure = e;
            return;
        } finally {
            ready.countDown();
        }
        try {
            go.await();
            MeasurementWindow w = window;
            while (w != null && transactions != null && System.nanoTime() < w.endNanos()
                && !Thread.currentThread().isInterrupted()) {
                TransactionType type = deck.next();
                runOne(inputs.next(type, fixedHome > 0 ? fixedHome : random.uniform(1, options.warehouses())), w);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            closeQuietly();
        }
    }

    /**
     * Runs one business transaction, retrying it on retryable failures. Its retries are counted
     * with it, when it ends inside the window, so counts and latencies describe the same set.
     */
    private void runOne(TransactionInput input, MeasurementWindow w) {
        TransactionType type = input.type();
        long started = System.nanoTime();
        List<String> retryCodes = new ArrayList<>(0);
        while (true) {
            try {
                Outcome outcome = transactions.execute(input);
                long ended = System.nanoTime();
                boolean inWindow = w.contains(ended);
                live.completed(type, inWindow);
                if (inWindow) {
                    retryCodes.forEach(code -> stats.retried(type, code));
                    stats.completed(type, outcome, (ended - started) / 1_000);
                }
                return;
            } catch (SQLException e) {
                long now = System.nanoTime();
                SqlErrors.Kind kind = SqlErrors.classify(e);
                String code = SqlErrors.code(e);
                if (kind == SqlErrors.Kind.RETRYABLE && retryCodes.size() < options.maxRetries() && now < w.endNanos()) {
                    retryCodes.add(code);
                    continue;
                }
                String message = retryCodes.isEmpty() ? e.getMessage()
                    : "after " + retryCodes.size() + " retries: " + e.getMessage();
                fail(type, code, e.getSQLState(), message, retryCodes, now, w);
                if (kind == SqlErrors.Kind.CONNECTION_LOST) {
                    reconnect(w);
                }
                return;
            } catch (RuntimeException e) {
                fail(type, "client:" + e.getClass().getSimpleName(), null, e.getMessage(), retryCodes,
                    System.nanoTime(), w);
                return;
            }
        }
    }

    private void fail(TransactionType type, String code, String sqlState, String message, List<String> retryCodes,
                      long now, MeasurementWindow w) {
        live.error();
        if (w.contains(now)) {
            retryCodes.forEach(retried -> stats.retried(type, retried));
            // Driver messages can span lines; one line keeps the table and results.json readable.
            stats.failed(type, code, sqlState, message == null ? "" : message.replaceAll("\\s+", " ").trim());
        }
    }

    private void reconnect(MeasurementWindow w) {
        closeQuietly();
        while (System.nanoTime() < w.endNanos()) {
            try {
                transactions = factory.open();
                if (w.contains(System.nanoTime())) {
                    stats.reconnected();
                }
                return;
            } catch (SQLException e) {
                log.warn("reconnect failed: {}", e.getMessage());
                try {
                    Thread.sleep(RECONNECT_PAUSE_MILLIS);
                } catch (InterruptedException interrupted) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }

    private void closeQuietly() {
        TransactionExecutor current = transactions;
        transactions = null;
        if (current != null) {
            try {
                current.close();
            } catch (SQLException e) {
                log.debug("close failed", e);
            }
        }
    }
}
