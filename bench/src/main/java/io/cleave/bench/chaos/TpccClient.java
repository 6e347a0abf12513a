package io.cleave.bench.chaos;

import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.data.NURandConstants;
import io.cleave.bench.tpcc.data.TpccRandom;
import io.cleave.bench.tpcc.load.LoadOptions;
import io.cleave.bench.tpcc.run.SqlErrors;
import io.cleave.bench.tpcc.txn.InputGenerator;
import io.cleave.bench.tpcc.txn.PreparedTransactions;
import io.cleave.bench.tpcc.txn.TransactionDeck;
import io.cleave.bench.tpcc.txn.TransactionInput;
import java.sql.Connection;
import java.sql.SQLException;

/**
 * A TPC-C terminal of the bench's TPC-C (the standard mix, server-side prepared statements,
 * autocommit off, REPEATABLE READ), one business transaction per unit, retried on deadlocks and
 * lock wait timeouts as the TPC-C driver retries them. Consistency conditions 1-4 must hold
 * after whatever faults hit it: each transaction applies whole or not at all.
 */
final class TpccClient extends WorkloadClient {
    private static final int MAX_RETRIES = 10;

    private final int home;
    private final TpccRandom tpccRandom;
    private final TransactionDeck deck;
    private final InputGenerator inputs;
    private PreparedTransactions transactions;

    TpccClient(int index, ChaosContext context, JdbcTarget proxy, int warehouses) {
        super("tpcc", index, context, proxy.withServerPreparedStatements());
        this.home = index % warehouses + 1;
        this.tpccRandom = new TpccRandom(context.seed() * 31 + index);
        this.deck = new TransactionDeck(tpccRandom);
        this.inputs = new InputGenerator(tpccRandom, warehouses,
            NURandConstants.forRun(NURandConstants.forLoad(LoadOptions.DEFAULT_SEED), tpccRandom));
    }

    @Override
    void opened(Connection c) throws SQLException {
        c.setAutoCommit(false);
        c.setTransactionIsolation(Connection.TRANSACTION_REPEATABLE_READ);
        transactions = new PreparedTransactions(c);
    }

    @Override
    void unit() throws SQLException {
        TransactionInput input = inputs.next(deck.next(), home);
        for (int attempt = 0; ; attempt++) {
            connection();
            try {
                transactions.execute(input);
                context.counts().tpccCommitted.incrementAndGet();
                return;
            } catch (SQLException e) {
                if (attempt >= MAX_RETRIES || SqlErrors.classify(e) != SqlErrors.Kind.RETRYABLE) {
                    throw e;
                }
                context.errors().add(context.clock().millis(), "tpcc retried", e);
            }
        }
    }
}
