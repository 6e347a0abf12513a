package io.cleave.bench.tpcc.schema;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/**
 * The nine TPC-C tables with their primary keys and the two usual secondary indexes. Every table
 * but item carries its warehouse as the first primary-key column, so a proxy can shard on it and
 * every access path stays inside one warehouse. No foreign keys: they would span shards.
 */
public final class TpccSchema {

    /** In dependency-free order; dropped in reverse. */
    public static final List<String> TABLES = List.of(
        "item", "warehouse", "district", "customer", "history", "new_orders", "orders", "order_line", "stock");

    /** Every table but item with the column holding its warehouse: what a proxy shards it by. */
    public static final java.util.Map<String, String> WAREHOUSE_COLUMNS = orderedMap(
        "warehouse", "w_id", "district", "d_w_id", "customer", "c_w_id", "history", "h_w_id", "new_orders", "no_w_id",
        "orders", "o_w_id", "order_line", "ol_w_id", "stock", "s_w_id");

    private static final List<String> CREATE = List.of(
        """
        CREATE TABLE IF NOT EXISTS item (
          i_id INT NOT NULL,
          i_im_id INT NOT NULL,
          i_name VARCHAR(24) NOT NULL,
          i_price DECIMAL(5,2) NOT NULL,
          i_data VARCHAR(50) NOT NULL,
          PRIMARY KEY (i_id)
        ) ENGINE=InnoDB""",
        """
        CREATE TABLE IF NOT EXISTS warehouse (
          w_id INT NOT NULL,
          w_name VARCHAR(10) NOT NULL,
          w_street_1 VARCHAR(20) NOT NULL,
          w_street_2 VARCHAR(20) NOT NULL,
          w_city VARCHAR(20) NOT NULL,
          w_state CHAR(2) NOT NULL,
          w_zip CHAR(9) NOT NULL,
          w_tax DECIMAL(4,4) NOT NULL,
          w_ytd DECIMAL(12,2) NOT NULL,
          PRIMARY KEY (w_id)
        ) ENGINE=InnoDB""",
        """
        CREATE TABLE IF NOT EXISTS district (
          d_w_id INT NOT NULL,
          d_id TINYINT NOT NULL,
          d_name VARCHAR(10) NOT NULL,
          d_street_1 VARCHAR(20) NOT NULL,
          d_street_2 VARCHAR(20) NOT NULL,
          d_city VARCHAR(20) NOT NULL,
          d_state CHAR(2) NOT NULL,
          d_zip CHAR(9) NOT NULL,
          d_tax DECIMAL(4,4) NOT NULL,
          d_ytd DECIMAL(12,2) NOT NULL,
          d_next_o_id INT NOT NULL,
          PRIMARY KEY (d_w_id, d_id)
        ) ENGINE=InnoDB""",
        """
        CREATE TABLE IF NOT EXISTS customer (
          c_w_id INT NOT NULL,
          c_d_id TINYINT NOT NULL,
          c_id INT NOT NULL,
          c_first VARCHAR(16) NOT NULL,
          c_middle CHAR(2) NOT NULL,
          c_last VARCHAR(16) NOT NULL,
          c_street_1 VARCHAR(20) NOT NULL,
          c_street_2 VARCHAR(20) NOT NULL,
          c_city VARCHAR(20) NOT NULL,
          c_state CHAR(2) NOT NULL,
          c_zip CHAR(9) NOT NULL,
          c_phone CHAR(16) NOT NULL,
          c_since DATETIME NOT NULL,
          c_credit CHAR(2) NOT NULL,
          c_credit_lim DECIMAL(12,2) NOT NULL,
          c_discount DECIMAL(4,4) NOT NULL,
          c_balance DECIMAL(12,2) NOT NULL,
          c_ytd_payment DECIMAL(12,2) NOT NULL,
          c_payment_cnt INT NOT NULL,
          c_delivery_cnt INT NOT NULL,
          c_data VARCHAR(500) NOT NULL,
          PRIMARY KEY (c_w_id, c_d_id, c_id),
          KEY idx_customer_name (c_w_id, c_d_id, c_last, c_first)
        ) ENGINE=InnoDB""",
        // The specification gives history no key; InnoDB then clusters on a hidden row id.
        """
        CREATE TABLE IF NOT EXISTS history (
          h_c_id INT NOT NULL,
          h_c_d_id TINYINT NOT NULL,
          h_c_w_id INT NOT NULL,
          h_d_id TINYINT NOT NULL,
          h_w_id INT NOT NULL,
          h_date DATETIME NOT NULL,
          h_amount DECIMAL(6,2) NOT NULL,
          h_data VARCHAR(24) NOT NULL
        ) ENGINE=InnoDB""",
        """
        CREATE TABLE IF NOT EXISTS new_orders (
          no_w_id INT NOT NULL,
          no_d_id TINYINT NOT NULL,
          no_o_id INT NOT NULL,
          PRIMARY KEY (no_w_id, no_d_id, no_o_id)
        ) ENGINE=InnoDB""",
        """
        CREATE TABLE IF NOT EXISTS orders (
          o_w_id INT NOT NULL,
          o_d_id TINYINT NOT NULL,
          o_id INT NOT NULL,
          o_c_id INT NOT NULL,
          o_entry_d DATETIME NOT NULL,
          o_carrier_id TINYINT NULL,
          o_ol_cnt TINYINT NOT NULL,
          o_all_local TINYINT NOT NULL,
          PRIMARY KEY (o_w_id, o_d_id, o_id),
          KEY idx_orders_customer (o_w_id, o_d_id, o_c_id, o_id)
        ) ENGINE=InnoDB""",
        """
        CREATE TABLE IF NOT EXISTS order_line (
          ol_w_id INT NOT NULL,
          ol_d_id TINYINT NOT NULL,
          ol_o_id INT NOT NULL,
          ol_number TINYINT NOT NULL,
          ol_i_id INT NOT NULL,
          ol_supply_w_id INT NOT NULL,
          ol_delivery_d DATETIME NULL,
          ol_quantity TINYINT NOT NULL,
          ol_amount DECIMAL(6,2) NOT NULL,
          ol_dist_info CHAR(24) NOT NULL,
          PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number)
        ) ENGINE=InnoDB""",
        """
        CREATE TABLE IF NOT EXISTS stock (
          s_w_id INT NOT NULL,
          s_i_id INT NOT NULL,
          s_quantity SMALLINT NOT NULL,
          s_dist_01 CHAR(24) NOT NULL,
          s_dist_02 CHAR(24) NOT NULL,
          s_dist_03 CHAR(24) NOT NULL,
          s_dist_04 CHAR(24) NOT NULL,
          s_dist_05 CHAR(24) NOT NULL,
          s_dist_06 CHAR(24) NOT NULL,
          s_dist_07 CHAR(24) NOT NULL,
          s_dist_08 CHAR(24) NOT NULL,
          s_dist_09 CHAR(24) NOT NULL,
          s_dist_10 CHAR(24) NOT NULL,
          s_ytd DECIMAL(8,0) NOT NULL,
          s_order_cnt SMALLINT NOT NULL,
          s_remote_cnt SMALLINT NOT NULL,
          s_data VARCHAR(50) NOT NULL,
          PRIMARY KEY (s_w_id, s_i_id)
        ) ENGINE=InnoDB""");

    private TpccSchema() {
    }

    public static List<String> createStatements() {
        return CREATE;
    }

    public static void create(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (String ddl : CREATE) {
                statement.execute(ddl);
            }
        }
    }

    public static void drop(Connection connection) throws SQLException {
        try (Statement statement = connection.createStatement()) {
            for (int i = TABLES.size() - 1; i >= 0; i--) {
                statement.execute("DROP TABLE IF EXISTS " + TABLES.get(i));
            }
        }
    }

    private static java.util.Map<String, String> orderedMap(String... pairs) {
        java.util.Map<String, String> map = new java.util.LinkedHashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            map.put(pairs[i], pairs[i + 1]);
        }
        return java.util.Collections.unmodifiableMap(map);
    }
}
