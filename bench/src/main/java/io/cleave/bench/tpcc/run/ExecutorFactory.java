package io.cleave.bench.tpcc.run;

import io.cleave.bench.tpcc.txn.PreparedTransactions;
import io.cleave.bench.tpcc.txn.TransactionExecutor;
import java.sql.Connection;
import java.sql.SQLException;

/** Opens a terminal's executor: once at start, and again after its connection was lost. */
@FunctionalInterface
interface ExecutorFactory {
    TransactionExecutor open() throws SQLException;

    /** A new connection with autocommit off, the run's isolation, and all statements prepared. */
    static ExecutorFactory preparedOn(ConnectionSource source, IsolationLevel isolation) {
        return () -> {
            Connection connection = source.open();
            try {
                connection.setAutoCommit(false);
                connection.setTransactionIsolation(isolation.jdbcLevel());
                return new PreparedTransactions(connection);
            } catch (SQLException | RuntimeException e) {
                connection.close();
                throw e;
            }
        };
    }
}
