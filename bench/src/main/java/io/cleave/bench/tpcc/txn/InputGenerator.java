package io.cleave.bench.tpcc.txn;

import static io.cleave.bench.tpcc.TpccScale.DISTRICTS_PER_WAREHOUSE;
import static io.cleave.bench.tpcc.TpccScale.ITEMS;

import io.cleave.bench.tpcc.data.LastNames;
import io.cleave.bench.tpcc.data.NURandConstants;
import io.cleave.bench.tpcc.data.TpccRandom;
import io.cleave.bench.tpcc.txn.TransactionInput.CustomerKey;
import io.cleave.bench.tpcc.txn.TransactionInput.OrderLine;
import java.util.ArrayList;
import java.util.List;

/** Generates transaction inputs as clause 2.4.1 to 2.8.1 prescribe, for one terminal. */
public final class InputGenerator {
    /** An item id no row has: the 1% of new orders that must roll back ask for it. */
    public static final int UNUSED_ITEM_ID = ITEMS + 1;

    private final TpccRandom random;
    private final int warehouses;
    private final NURandConstants constants;

    public InputGenerator(TpccRandom random, int warehouses, NURandConstants constants) {
        if (warehouses < 1) {
            throw new IllegalArgumentException("warehouses must be at least 1: " + warehouses);
        }
        this.random = random;
        this.warehouses = warehouses;
        this.constants = constants;
    }

    public TransactionInput next(TransactionType type, int homeWarehouse) {
        return switch (type) {
            case NEW_ORDER -> newOrder(homeWarehouse);
            case PAYMENT -> payment(homeWarehouse);
            case ORDER_STATUS -> orderStatus(homeWarehouse);
            case DELIVERY -> new TransactionInput.Delivery(homeWarehouse, random.uniform(1, 10));
            case STOCK_LEVEL -> new TransactionInput.StockLevel(homeWarehouse, district(), random.uniform(10, 20));
        };
    }

    public TransactionInput.NewOrder newOrder(int w) {
        int lineCount = random.uniform(5, 15);
        boolean rollback = random.uniform(1, 100) == 1;
        List<OrderLine> lines = new ArrayList<>(lineCount);
        for (int n = 1; n <= lineCount; n++) {
            int item = rollback && n == lineCount ? UNUSED_ITEM_ID : random.nuRand(8191, 1, ITEMS, constants.olIid());
            int supply = warehouses > 1 && random.uniform(1, 100) == 1 ? random.otherWarehouse(w, warehouses) : w;
            lines.add(new OrderLine(item, supply, random.uniform(1, 10)));
        }
        return new TransactionInput.NewOrder(w, district(), customerId(), lines, rollback);
    }

    public TransactionInput.Payment payment(int w) {
        int d = district();
        int customerWarehouse = w;
        int customerDistrict = d;
        if (warehouses > 1 && random.uniform(1, 100) <= 15) {
            customerWarehouse = random.otherWarehouse(w, warehouses);
            customerDistrict = district();
        }
        return new TransactionInput.Payment(w, d, customerWarehouse, customerDistrict, customer(),
            random.decimal(100, 500_000, 2));
    }

    public TransactionInput.OrderStatus orderStatus(int w) {
        return new TransactionInput.OrderStatus(w, district(), customer());
    }

    /** 60% by last name, 40% by id (clause 2.5.1.2 and 2.6.1.2). */
    private CustomerKey customer() {
        if (random.uniform(1, 100) <= 60) {
            return CustomerKey.byLastName(LastNames.of(random.nuRand(255, 0, 999, constants.cLast())));
        }
        return CustomerKey.byId(customerId());
    }

    private int customerId() {
        return random.nuRand(1023, 1, 3000, constants.cId());
    }

    private int district() {
        return random.uniform(1, DISTRICTS_PER_WAREHOUSE);
    }
}
