package io.cleave.bench.tpcc.txn;

import java.math.BigDecimal;
import java.util.List;

/**
 * The terminal's input to one transaction, generated before the first attempt so that a retry
 * after a deadlock repeats the same business transaction.
 */
public sealed interface TransactionInput {

    TransactionType type();

    /** Home warehouse: the one the transaction is charged to and mostly touches. */
    int warehouse();

    record NewOrder(int warehouse, int district, int customer, List<OrderLine> lines, boolean rollback)
        implements TransactionInput {
        public NewOrder {
            lines = List.copyOf(lines);
        }

        @Override
        public TransactionType type() {
            return TransactionType.NEW_ORDER;
        }

        public boolean allLocal() {
            return lines.stream().allMatch(line -> line.supplyWarehouse() == warehouse);
        }
    }

    record OrderLine(int itemId, int supplyWarehouse, int quantity) {
    }

    record Payment(int warehouse, int district, int customerWarehouse, int customerDistrict, CustomerKey customer,
                   BigDecimal amount) implements TransactionInput {
        @Override
        public TransactionType type() {
            return TransactionType.PAYMENT;
        }
    }

    record OrderStatus(int warehouse, int district, CustomerKey customer) implements TransactionInput {
        @Override
        public TransactionType type() {
            return TransactionType.ORDER_STATUS;
        }
    }

    record Delivery(int warehouse, int carrier) implements TransactionInput {
        @Override
        public TransactionType type() {
            return TransactionType.DELIVERY;
        }
    }

    record StockLevel(int warehouse, int district, int threshold) implements TransactionInput {
        @Override
        public TransactionType type() {
            return TransactionType.STOCK_LEVEL;
        }
    }

    /** A customer named by id, or by last name (then lastName is set and id is 0). */
    record CustomerKey(int id, String lastName) {
        public static CustomerKey byId(int id) {
            return new CustomerKey(id, null);
        }

        public static CustomerKey byLastName(String lastName) {
            return new CustomerKey(0, lastName);
        }

        public boolean isByLastName() {
            return lastName != null;
        }
    }
}
