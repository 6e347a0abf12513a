package io.cleave.bench.tpcc.txn;

import java.sql.SQLException;

/** Runs transaction inputs as database transactions on one connection. */
public interface TransactionExecutor extends AutoCloseable {

    /** Runs and commits (or performs the specified rollback); on failure nothing stays applied. */
    Outcome execute(TransactionInput input) throws SQLException;

    /** Cuts the connection from another thread, to unblock a terminal stuck past the end of a run. */
    void abort();

    @Override
    void close() throws SQLException;
}
