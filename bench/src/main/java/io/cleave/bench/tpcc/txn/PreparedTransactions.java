package io.cleave.bench.tpcc.txn;

import java.sql.Connection;
import java.sql.SQLException;

/**
 * One connection with the statements of all five transactions prepared on it; runs a transaction
 * input as one explicit database transaction. The connection must have autocommit off.
 */
public final class PreparedTransactions implements TransactionExecutor {
    private final Connection connection;
    private final NewOrderTransaction newOrder;
    private final PaymentTransaction payment;
    private final OrderStatusTransaction orderStatus;
    private final DeliveryTransaction delivery;
    private final StockLevelTransaction stockLevel;

    public PreparedTransactions(Connection connection) throws SQLException {
        if (connection.getAutoCommit()) {
            throw new IllegalArgumentException("TPC-C transactions need a connection with autocommit off");
        }
        this.connection = connection;
        newOrder = new NewOrderTransaction(connection);
        payment = new PaymentTransaction(connection);
        orderStatus = new OrderStatusTransaction(connection);
        delivery = new DeliveryTransaction(connection);
        stockLevel = new StockLevelTransaction(connection);
    }

    public Connection connection() {
        return connection;
    }

    /** Runs and commits; on any failure the transaction is rolled back before the exception leaves. */
    @Override
    public Outcome execute(TransactionInput input) throws SQLException {
        try {
            if (input instanceof TransactionInput.NewOrder in) {
                newOrder.execute(in);
            } else if (input instanceof TransactionInput.Payment in) {
                payment.execute(in);
            } else if (input instanceof TransactionInput.OrderStatus in) {
                orderStatus.execute(in);
            } else if (input instanceof TransactionInput.Delivery in) {
                delivery.execute(in);
            } else if (input instanceof TransactionInput.StockLevel in) {
                stockLevel.execute(in);
            } else {
                throw new IllegalArgumentException("unknown transaction input " + input);
            }
            connection.commit();
            return Outcome.COMMITTED;
        } catch (ItemNotFoundException e) {
            connection.rollback();
            return Outcome.ROLLED_BACK;
        } catch (SQLException | RuntimeException e) {
            rollbackQuietly(e);
            throw e;
        }
    }

    private void rollbackQuietly(Exception cause) {
        try {
            connection.rollback();
        } catch (SQLException rollbackFailure) {
            cause.addSuppressed(rollbackFailure);
        }
    }

    @Override
    public void abort() {
        try {
            connection.abort(Runnable::run);
        } catch (SQLException e) {
            // Already closed or closing: either way the terminal is unblocked.
        }
    }

    /** Closes the connection; its prepared statements go with it. */
    @Override
    public void close() throws SQLException {
        connection.close();
    }
}
