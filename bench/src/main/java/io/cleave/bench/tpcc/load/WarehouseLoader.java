package io.cleave.bench.tpcc.load;

import static io.cleave.bench.tpcc.TpccScale.CUSTOMERS_PER_DISTRICT;
import static io.cleave.bench.tpcc.TpccScale.DISTRICTS_PER_WAREHOUSE;
import static io.cleave.bench.tpcc.TpccScale.FIRST_NEW_ORDER_ID;
import static io.cleave.bench.tpcc.TpccScale.ITEMS;
import static io.cleave.bench.tpcc.TpccScale.ORDERS_PER_DISTRICT;
import static io.cleave.bench.tpcc.TpccScale.STOCK_PER_WAREHOUSE;

import io.cleave.bench.tpcc.data.LastNames;
import io.cleave.bench.tpcc.data.NURandConstants;
import io.cleave.bench.tpcc.data.TpccRandom;
import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.util.Map;

/**
 * The rows of one warehouse, in three independent parts so that even a one-warehouse load keeps
 * several threads (and the server's cores) busy. Values follow clause 4.3.3.1.
 */
final class WarehouseLoader {
    private static final BigDecimal WAREHOUSE_YTD = new BigDecimal("300000.00");
    private static final BigDecimal DISTRICT_YTD = new BigDecimal("30000.00");
    private static final BigDecimal CREDIT_LIMIT = new BigDecimal("50000.00");
    private static final BigDecimal INITIAL_BALANCE = new BigDecimal("-10.00");
    private static final BigDecimal INITIAL_PAYMENT = new BigDecimal("10.00");
    private static final BigDecimal ZERO_AMOUNT = new BigDecimal("0.00");

    private WarehouseLoader() {
    }

    /** One unit of loading work; each has its own random stream so parts can run in any order. */
    enum Part {
        STOCK, CUSTOMERS, ORDERS;

        Map<String, Long> load(Connection connection, int warehouse, long seed, NURandConstants constants)
            throws SQLException {
            TpccRandom random = new TpccRandom(seed * 31 + warehouse * 7L + ordinal());
            return switch (this) {
                case STOCK -> Map.of("stock", stock(connection, warehouse, random));
                case CUSTOMERS -> customers(connection, warehouse, random, constants);
                case ORDERS -> orders(connection, warehouse, random);
            };
        }
    }

    private static long stock(Connection connection, int w, TpccRandom random) throws SQLException {
        try (MultiRowInsert insert = new MultiRowInsert(connection, "stock",
            "s_w_id", "s_i_id", "s_quantity", "s_dist_01", "s_dist_02", "s_dist_03", "s_dist_04", "s_dist_05",
            "s_dist_06", "s_dist_07", "s_dist_08", "s_dist_09", "s_dist_10", "s_ytd", "s_order_cnt",
            "s_remote_cnt", "s_data")) {
            for (int i = 1; i <= STOCK_PER_WAREHOUSE; i++) {
                insert.add(w, i, random.uniform(10, 100),
                    random.alphaString(24, 24), random.alphaString(24, 24), random.alphaString(24, 24),
                    random.alphaString(24, 24), random.alphaString(24, 24), random.alphaString(24, 24),
                    random.alphaString(24, 24), random.alphaString(24, 24), random.alphaString(24, 24),
                    random.alphaString(24, 24), 0, 0, 0, random.data(26, 50));
            }
            insert.flush();
            return insert.written();
        }
    }

    private static Map<String, Long> customers(Connection connection, int w, TpccRandom random,
                                               NURandConstants constants) throws SQLException {
        Timestamp now = new Timestamp(System.currentTimeMillis());
        try (MultiRowInsert warehouse = new MultiRowInsert(connection, "warehouse",
                 "w_id", "w_name", "w_street_1", "w_street_2", "w_city", "w_state", "w_zip", "w_tax", "w_ytd");
             MultiRowInsert district = new MultiRowInsert(connection, "district",
                 "d_w_id", "d_id", "d_name", "d_street_1", "d_street_2", "d_city", "d_state", "d_zip", "d_tax",
                 "d_ytd", "d_next_o_id");
             MultiRowInsert customer = new MultiRowInsert(connection, "customer",
                 "c_w_id", "c_d_id", "c_id", "c_first", "c_middle", "c_last", "c_street_1", "c_street_2", "c_city",
                 "c_state", "c_zip", "c_phone", "c_since", "c_credit", "c_credit_lim", "c_discount", "c_balance",
                 "c_ytd_payment", "c_payment_cnt", "c_delivery_cnt", "c_data");
             MultiRowInsert history = new MultiRowInsert(connection, "history",
                 "h_c_id", "h_c_d_id", "h_c_w_id", "h_d_id", "h_w_id", "h_date", "h_amount", "h_data")) {
            warehouse.add(w, random.alphaString(6, 10), random.alphaString(10, 20), random.alphaString(10, 20),
                random.alphaString(10, 20), random.state(), random.zip(), random.decimal(0, 2000, 4),
                WAREHOUSE_YTD);
            for (int d = 1; d <= DISTRICTS_PER_WAREHOUSE; d++) {
                district.add(w, d, random.alphaString(6, 10), random.alphaString(10, 20),
                    random.alphaString(10, 20), random.alphaString(10, 20), random.state(), random.zip(),
                    random.decimal(0, 2000, 4), DISTRICT_YTD, ORDERS_PER_DISTRICT + 1);
                for (int c = 1; c <= CUSTOMERS_PER_DISTRICT; c++) {
                    // The first 1,000 customers cover every last name once; the rest are skewed.
                    int lastName = c <= 1000 ? c - 1 : random.nuRand(255, 0, 999, constants.cLast());
                    customer.add(w, d, c, random.alphaString(8, 16), "OE", LastNames.of(lastName),
                        random.alphaString(10, 20), random.alphaString(10, 20), random.alphaString(10, 20),
                        random.state(), random.zip(), random.numericString(16, 16), now,
                        random.uniform(1, 10) == 1 ? "BC" : "GC", CREDIT_LIMIT, random.decimal(0, 5000, 4),
                        INITIAL_BALANCE, INITIAL_PAYMENT, 1, 0, random.alphaString(300, 500));
                    history.add(c, d, w, d, w, now, INITIAL_PAYMENT, random.alphaString(12, 24));
                }
            }
            warehouse.flush();
            district.flush();
            customer.flush();
            history.flush();
            return Map.of("warehouse", warehouse.written(), "district", district.written(),
                "customer", customer.written(), "history", history.written());
        }
    }

    private static Map<String, Long> orders(Connection connection, int w, TpccRandom random) throws SQLException {
        Timestamp now = new Timestamp(System.currentTimeMillis());
        try (MultiRowInsert orders = new MultiRowInsert(connection, "orders",
                 "o_w_id", "o_d_id", "o_id", "o_c_id", "o_entry_d", "o_carrier_id", "o_ol_cnt", "o_all_local");
             MultiRowInsert lines = new MultiRowInsert(connection, "order_line",
                 "ol_w_id", "ol_d_id", "ol_o_id", "ol_number", "ol_i_id", "ol_supply_w_id", "ol_delivery_d",
                 "ol_quantity", "ol_amount", "ol_dist_info");
             MultiRowInsert newOrders = new MultiRowInsert(connection, "new_orders",
                 "no_w_id", "no_d_id", "no_o_id")) {
            for (int d = 1; d <= DISTRICTS_PER_WAREHOUSE; d++) {
                int[] customers = random.permutation(CUSTOMERS_PER_DISTRICT);
                for (int o = 1; o <= ORDERS_PER_DISTRICT; o++) {
                    boolean delivered = o < FIRST_NEW_ORDER_ID;
                    int lineCount = random.uniform(5, 15);
                    orders.add(w, d, o, customers[o - 1], now, delivered ? random.uniform(1, 10) : null,
                        lineCount, 1);
                    for (int n = 1; n <= lineCount; n++) {
                        lines.add(w, d, o, n, random.uniform(1, ITEMS), w, delivered ? now : null, 5,
                            delivered ? ZERO_AMOUNT : random.decimal(1, 999_999, 2), random.alphaString(24, 24));
                    }
                    if (!delivered) {
                        newOrders.add(w, d, o);
                    }
                }
            }
            orders.flush();
            lines.flush();
            newOrders.flush();
            return Map.of("orders", orders.written(), "order_line", lines.written(),
                "new_orders", newOrders.written());
        }
    }
}
