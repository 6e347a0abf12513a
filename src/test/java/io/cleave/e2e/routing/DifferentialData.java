package io.cleave.e2e.routing;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;

/**
 * The data the differential test loads both into one plain server and through the proxy into four
 * shards: TPC-C-like tables sharded by warehouse ranges, sysbench-like tables and a typed table
 * hashed by id, a reference table and an unsharded one. Generated from a fixed seed, so every run
 * (and both sides) gets the same rows. Strings mix case and accents, repeat (ties) and are
 * sometimes NULL; numbers include decimals, negatives, doubles and large unsigned values.
 *
 * <p>Rows go in as multi-row INSERTs whose rows are shuffled across warehouses and ids, so the
 * proxy splits every statement across shards.
 */
final class DifferentialData {

    static final int WAREHOUSES = 8;
    static final int DISTRICTS = 3;
    static final int CUSTOMERS = 8;
    static final int ITEMS = 40;
    static final int ORDERS = 5;
    static final int SBTEST_ROWS = 150;
    static final int METRICS_ROWS = 120;
    static final int NOTES_ROWS = 30;
    static final int ACCOUNTS_ROWS = 60;

    /** Every table of the data set; states are compared table by table. */
    static final List<String> TABLES = List.of("warehouse", "district", "customer", "history", "new_orders", "orders",
            "order_line", "item", "stock", "sbtest1", "sbtest2", "metrics", "notes", "accounts");

    /**
     * The sharding section of the 4-shard side: warehouses 1-2, 3-4, 5-6 and 7- on shards 0..3;
     * sbtest1, sbtest2 and metrics hashed by id; accounts hashed by a string (collation-equal
     * tenants must meet on one shard); item copied everywhere; notes on shard 2 only.
     */
    static final String SHARDING_YAML = """
            sharding:
              default_shard: 0
              keyspaces:
                - name: warehouse
                  function: range
                  ranges:
                    - { from: 1, to: 2, shard: 0 }
                    - { from: 3, to: 4, shard: 1 }
                    - { from: 5, to: 6, shard: 2 }
                    - { from: 7, shard: 3 }
                - { name: sbtest, function: hash, buckets: 256, key_type: integer }
                - { name: tenant, function: hash, buckets: 64, key_type: string }
              tables:
                - { name: warehouse, keyspace: warehouse, column: w_id }
                - { name: district, keyspace: warehouse, column: d_w_id }
                - { name: customer, keyspace: warehouse, column: c_w_id }
                - { name: history, keyspace: warehouse, column: h_w_id }
                - { name: new_orders, keyspace: warehouse, column: no_w_id }
                - { name: orders, keyspace: warehouse, column: o_w_id }
                - { name: order_line, keyspace: warehouse, column: ol_w_id }
                - { name: stock, keyspace: warehouse, column: s_w_id }
                - { name: item, type: reference }
                - { name: sbtest1, keyspace: sbtest, column: id }
                - { name: sbtest2, keyspace: sbtest, column: id }
                - { name: metrics, keyspace: sbtest, column: id }
                - { name: notes, type: unsharded, shard: 2 }
                - { name: accounts, keyspace: tenant, column: tenant }
            """;

    static final List<String> SCHEMA = List.of(
            "CREATE TABLE warehouse (w_id INT NOT NULL, w_name VARCHAR(10), w_street_1 VARCHAR(20), w_city VARCHAR(20),"
                    + " w_state CHAR(2), w_zip CHAR(9), w_tax DECIMAL(4,4), w_ytd DECIMAL(12,2), PRIMARY KEY (w_id))",
            "CREATE TABLE district (d_id TINYINT NOT NULL, d_w_id INT NOT NULL, d_name VARCHAR(10), d_street_1 VARCHAR(20),"
                    + " d_city VARCHAR(20), d_state CHAR(2), d_zip CHAR(9), d_tax DECIMAL(4,4), d_ytd DECIMAL(12,2),"
                    + " d_next_o_id INT, PRIMARY KEY (d_w_id, d_id))",
            "CREATE TABLE customer (c_id INT NOT NULL, c_d_id TINYINT NOT NULL, c_w_id INT NOT NULL, c_first VARCHAR(16),"
                    + " c_middle CHAR(2), c_last VARCHAR(16), c_street_1 VARCHAR(20), c_city VARCHAR(20), c_state CHAR(2),"
                    + " c_zip CHAR(9), c_phone CHAR(16), c_since DATETIME, c_credit CHAR(2), c_credit_lim DECIMAL(12,2),"
                    + " c_discount DECIMAL(4,4), c_balance DECIMAL(12,2), c_ytd_payment DECIMAL(12,2), c_payment_cnt INT,"
                    + " c_delivery_cnt INT, c_data VARCHAR(500), PRIMARY KEY (c_w_id, c_d_id, c_id),"
                    + " KEY idx_customer (c_w_id, c_d_id, c_last, c_first))",
            "CREATE TABLE history (h_c_id INT, h_c_d_id TINYINT, h_c_w_id INT, h_d_id TINYINT, h_w_id INT NOT NULL,"
                    + " h_date DATETIME, h_amount DECIMAL(6,2), h_data VARCHAR(24), KEY (h_w_id, h_c_id))",
            "CREATE TABLE new_orders (no_o_id INT NOT NULL, no_d_id TINYINT NOT NULL, no_w_id INT NOT NULL,"
                    + " PRIMARY KEY (no_w_id, no_d_id, no_o_id))",
            "CREATE TABLE orders (o_id INT NOT NULL, o_d_id TINYINT NOT NULL, o_w_id INT NOT NULL, o_c_id INT,"
                    + " o_entry_d DATETIME, o_carrier_id TINYINT, o_ol_cnt TINYINT, o_all_local TINYINT,"
                    + " PRIMARY KEY (o_w_id, o_d_id, o_id), KEY idx_orders (o_w_id, o_d_id, o_c_id, o_id))",
            "CREATE TABLE order_line (ol_o_id INT NOT NULL, ol_d_id TINYINT NOT NULL, ol_w_id INT NOT NULL,"
                    + " ol_number TINYINT NOT NULL, ol_i_id INT, ol_supply_w_id INT, ol_delivery_d DATETIME,"
                    + " ol_quantity TINYINT, ol_amount DECIMAL(6,2), ol_dist_info CHAR(24),"
                    + " PRIMARY KEY (ol_w_id, ol_d_id, ol_o_id, ol_number))",
            "CREATE TABLE item (i_id INT NOT NULL, i_im_id INT, i_name VARCHAR(24), i_price DECIMAL(5,2),"
                    + " i_data VARCHAR(50), PRIMARY KEY (i_id))",
            "CREATE TABLE stock (s_i_id INT NOT NULL, s_w_id INT NOT NULL, s_quantity SMALLINT, s_dist_01 CHAR(24),"
                    + " s_ytd DECIMAL(8,0), s_order_cnt SMALLINT, s_remote_cnt SMALLINT, s_data VARCHAR(50),"
                    + " PRIMARY KEY (s_w_id, s_i_id))",
            "CREATE TABLE sbtest1 (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0,"
                    + " c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_1 (k))",
            "CREATE TABLE sbtest2 (id INT NOT NULL AUTO_INCREMENT, k INT NOT NULL DEFAULT 0,"
                    + " c CHAR(120) NOT NULL DEFAULT '', pad CHAR(60) NOT NULL DEFAULT '', PRIMARY KEY (id), KEY k_1 (k))",
            "CREATE TABLE metrics (id INT NOT NULL, tag VARCHAR(20) COLLATE utf8mb4_general_ci, grp CHAR(1), amount DECIMAL(10,3), ratio DOUBLE,"
                    + " qty BIGINT UNSIGNED, day DATE, at_time TIME, stamp DATETIME(3), flag TINYINT, raw VARBINARY(8),"
                    + " kind ENUM('red','green','blue'), fl FLOAT, yr YEAR, bits BIT(8), tags SET('x','y','z'),"
                    + " PRIMARY KEY (id), KEY (grp))",
            "CREATE TABLE notes (id INT NOT NULL, author VARCHAR(20) COLLATE utf8mb4_bin, body VARCHAR(100), created DATE, score DOUBLE,"
                    + " PRIMARY KEY (id))",
            "CREATE TABLE accounts (tenant VARCHAR(20) NOT NULL, id INT NOT NULL, balance DECIMAL(10,2), note VARCHAR(20),"
                    + " PRIMARY KEY (tenant, id))");

    /** Last names: case and accent variants that one collation ties, plus apostrophes and an empty one. */
    private static final String[] LAST = {"BARBAR", "barbar", "Barbar", "ÉLAN", "élan", "Elan", "OUGHTABLE",
            "Zoë", "ZOE", "zoe", "Åsa", "ASA", "Straße", "STRASSE", "o'Brien", "Ñandú", "nandu", "McDonald",
            "mcdonald", "ablepri", "ABLEPRI", "Ölund", "oelund", ""};
    private static final String[] FIRST = {"anna", "Anna", "ANNA", "Björn", "bjorn", "Chloé", "chloe", "Dmitri",
            "émile", "Emile", "Zed", "zed"};
    private static final String[] CITIES = {"Zürich", "zurich", "Amsterdam", "amsterdam", "Łódź", "Lodz", "Paris",
            "PARIS", "São Paulo", "sao paulo"};
    private static final String[] STATES = {"NY", "ny", "CA", "ca", "TX", "ÉÉ"};
    private static final String[] TAGS = {"alpha", "Alpha", "ALPHA", "beta", "Béta", "gamma", "Gamma", "delta",
            "Ωmega", "ωmega", "zeta", "Zeta", "", null};
    private static final String[] GROUPS = {"a", "A", "b", "c", "C", "d"};
    private static final String[] AUTHORS = {"ann", "Ann", "bob", "Bob", "Ça", "ca", null};
    private static final String[] KINDS = {"red", "green", "blue", null};
    /** Tenants that the default collation (utf8mb4_uca1400_ai_ci) ties in groups. */
    private static final String[] TENANTS = {"Łódź", "lodz", "LODZ", "Straße", "STRASSE", "strasse", "Æther",
            "aether", "Øre", "ore", "cœur", "Coeur", "Ａcme", "acme", "ACME", "Zoë", "zoe", "plain", "Plain  ", "5.0", "05"};

    private final Random random = new Random(20_240_601L);
    private final List<String> statements = new ArrayList<>();

    /** The INSERT statements that load the whole data set, in load order. */
    static List<String> inserts() {
        return new DifferentialData().generate();
    }

    private List<String> generate() {
        List<String> warehouses = new ArrayList<>();
        List<String> districts = new ArrayList<>();
        List<String> customers = new ArrayList<>();
        List<String> history = new ArrayList<>();
        List<String> orders = new ArrayList<>();
        List<String> newOrders = new ArrayList<>();
        List<String> lines = new ArrayList<>();
        List<String> stock = new ArrayList<>();
        for (int w = 1; w <= WAREHOUSES; w++) {
            warehouses.add(row(w, str("W" + w), str(pick(CITIES) + " st"), str(pick(CITIES)), str(pick(STATES)),
                    str(zip()), dec(random.nextInt(2000), 4), dec(30_000_000 + random.nextInt(10) * 100, 2)));
            for (int d = 1; d <= DISTRICTS; d++) {
                districts.add(row(d, w, str("D" + w + "-" + d), str("street " + d), str(pick(CITIES)),
                        str(pick(STATES)), str(zip()), dec(random.nextInt(2000), 4), dec(3_000_000, 2), ORDERS + 1));
                for (int c = 1; c <= CUSTOMERS; c++) {
                    customers.add(customer(c, d, w));
                    history.add(row(c, d, w, d, w, datetime(), dec(1000, 2), str("hist " + w + d + c)));
                }
                for (int o = 1; o <= ORDERS; o++) {
                    int lineCount = 1 + random.nextInt(5);
                    boolean delivered = o <= ORDERS - 2;
                    orders.add(row(o, d, w, 1 + random.nextInt(CUSTOMERS), datetime(),
                            delivered ? Integer.toString(1 + random.nextInt(10)) : "NULL", lineCount, 1));
                    if (!delivered) {
                        newOrders.add(row(o, d, w));
                    }
                    for (int l = 1; l <= lineCount; l++) {
                        lines.add(row(o, d, w, l, 1 + random.nextInt(ITEMS), w, delivered ? datetime() : "NULL",
                                5, dec(random.nextInt(100) * 100, 2), str(letters(24))));
                    }
                }
            }
            for (int i = 1; i <= ITEMS; i++) {
                stock.add(row(i, w, 10 + random.nextInt(91), str(letters(24)), 0, random.nextInt(3), 0,
                        str(random.nextInt(10) == 0 ? "ORIGINAL " + letters(5) : letters(12))));
            }
        }
        List<String> items = new ArrayList<>();
        for (int i = 1; i <= ITEMS; i++) {
            items.add(row(i, 1 + random.nextInt(100), str(pick(LAST) + " " + pick(FIRST)),
                    dec(100 + random.nextInt(50) * 100, 2), str(random.nextInt(10) == 0 ? "ORIGINAL" : letters(10))));
        }
        List<String> sb1 = sbtest();
        List<String> sb2 = sbtest();
        List<String> metrics = new ArrayList<>();
        for (int id = 1; id <= METRICS_ROWS; id++) {
            metrics.add(metric(id));
        }
        List<String> notes = new ArrayList<>();
        for (int id = 1; id <= NOTES_ROWS; id++) {
            notes.add(row(id, str(pick(AUTHORS)), str("note " + letters(6)), date(),
                    random.nextInt(6) == 0 ? "NULL" : Double.toString(random.nextInt(1000) / 8.0)));
        }
        add("warehouse", "w_id, w_name, w_street_1, w_city, w_state, w_zip, w_tax, w_ytd", warehouses);
        add("district", "d_id, d_w_id, d_name, d_street_1, d_city, d_state, d_zip, d_tax, d_ytd, d_next_o_id", districts);
        add("customer", "c_id, c_d_id, c_w_id, c_first, c_middle, c_last, c_street_1, c_city, c_state, c_zip, c_phone,"
                + " c_since, c_credit, c_credit_lim, c_discount, c_balance, c_ytd_payment, c_payment_cnt,"
                + " c_delivery_cnt, c_data", customers);
        add("history", "h_c_id, h_c_d_id, h_c_w_id, h_d_id, h_w_id, h_date, h_amount, h_data", history);
        add("orders", "o_id, o_d_id, o_w_id, o_c_id, o_entry_d, o_carrier_id, o_ol_cnt, o_all_local", orders);
        add("new_orders", "no_o_id, no_d_id, no_w_id", newOrders);
        add("order_line", "ol_o_id, ol_d_id, ol_w_id, ol_number, ol_i_id, ol_supply_w_id, ol_delivery_d, ol_quantity,"
                + " ol_amount, ol_dist_info", lines);
        add("item", "i_id, i_im_id, i_name, i_price, i_data", items);
        add("stock", "s_i_id, s_w_id, s_quantity, s_dist_01, s_ytd, s_order_cnt, s_remote_cnt, s_data", stock);
        add("sbtest1", "id, k, c, pad", sb1);
        add("sbtest2", "id, k, c, pad", sb2);
        add("metrics", "id, tag, grp, amount, ratio, qty, day, at_time, stamp, flag, raw, kind, fl, yr, bits, tags", metrics);
        add("notes", "id, author, body, created, score", notes);
        List<String> accounts = new ArrayList<>();
        for (int id = 1; id <= ACCOUNTS_ROWS; id++) {
            accounts.add(row(str(pick(TENANTS)), id, dec(random.nextInt(100_000) - 20_000, 2),
                    random.nextInt(5) == 0 ? "NULL" : str("n" + letters(4))));
        }
        add("accounts", "tenant, id, balance, note", accounts);
        return statements;
    }

    private String customer(int c, int d, int w) {
        String data = random.nextInt(5) == 0 ? "NULL" : str(letters(20 + random.nextInt(30)));
        String middle = random.nextInt(4) == 0 ? "NULL" : str("OE");
        // Balances repeat often (ties); some are negative.
        String balance = random.nextInt(3) == 0 ? dec(-1000, 2) : dec(random.nextInt(200) * 500 - 20_000, 2);
        return row(c, d, w, str(pick(FIRST)), middle, str(pick(LAST)), str("street " + c), str(pick(CITIES)),
                str(pick(STATES)), str(zip()), str(digits(16)), datetime(), str(random.nextInt(10) == 0 ? "BC" : "GC"),
                dec(5_000_000, 2), dec(random.nextInt(5000), 4), balance, dec(1000, 2), 1, 0, data);
    }

    private List<String> sbtest() {
        List<String> rows = new ArrayList<>();
        for (int id = 1; id <= SBTEST_ROWS; id++) {
            rows.add(row(id, 1 + random.nextInt(SBTEST_ROWS / 3), str(sysbenchString(11, 10)), str(sysbenchString(5, 11))));
        }
        return rows;
    }

    private String metric(int id) {
        String amount = random.nextInt(8) == 0 ? "NULL"
                : new BigDecimal(random.nextInt(2_000_000) - 1_000_000).movePointLeft(3).toPlainString();
        String ratio = random.nextInt(8) == 0 ? "NULL" : Double.toString((random.nextInt(20_000) - 10_000) / 64.0);
        String qty = random.nextInt(10) == 0 ? "NULL"
                : new BigInteger(64, random).toString();
        String day = random.nextInt(10) == 0 ? "NULL" : date();
        String time = random.nextInt(10) == 0 ? "NULL"
                : "'" + (random.nextBoolean() ? "-" : "") + random.nextInt(200) + ":" + two(random.nextInt(60)) + ":"
                + two(random.nextInt(60)) + "'";
        String stamp = random.nextInt(10) == 0 ? "NULL"
                : "'" + date().replace("'", "") + " " + two(random.nextInt(24)) + ":" + two(random.nextInt(60)) + ":"
                + two(random.nextInt(60)) + "." + random.nextInt(10) + random.nextInt(10) + random.nextInt(10) + "'";
        String raw = random.nextInt(6) == 0 ? "NULL" : "X'" + hex(1 + random.nextInt(8)) + "'";
        String kind = pick(KINDS);
        String fl = random.nextInt(8) == 0 ? "NULL" : Float.toString((random.nextInt(2000) - 1000) / 16f);
        String yr = random.nextInt(8) == 0 ? "NULL" : Integer.toString(1990 + random.nextInt(50));
        String bits = random.nextInt(8) == 0 ? "NULL" : "b'" + Integer.toBinaryString(random.nextInt(256)) + "'";
        String set = random.nextInt(6) == 0 ? "NULL" : str(List.of("", "x", "y", "x,y", "x,z", "x,y,z").get(random.nextInt(6)));
        return row(id, str(pick(TAGS)), str(pick(GROUPS)), amount, ratio, qty, day, time, stamp,
                random.nextInt(256) - 128, raw, kind == null ? "NULL" : str(kind), fl, yr, bits, set);
    }

    /** One INSERT per 25 rows, rows shuffled so that each statement spans shards. */
    private void add(String table, String columns, List<String> rows) {
        List<String> shuffled = new ArrayList<>(rows);
        Collections.shuffle(shuffled, random);
        for (int from = 0; from < shuffled.size(); from += 25) {
            StringJoiner values = new StringJoiner(", ");
            shuffled.subList(from, Math.min(shuffled.size(), from + 25)).forEach(values::add);
            statements.add("INSERT INTO " + table + " (" + columns + ") VALUES " + values);
        }
    }

    private static String row(Object... values) {
        StringJoiner j = new StringJoiner(", ", "(", ")");
        for (Object v : values) {
            j.add(String.valueOf(v));
        }
        return j.toString();
    }

    /** A SQL string literal, or NULL. */
    static String str(String s) {
        return s == null ? "NULL" : "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    private static String dec(long unscaled, int scale) {
        return BigDecimal.valueOf(unscaled, scale).setScale(scale, RoundingMode.UNNECESSARY).toPlainString();
    }

    private String pick(String[] values) {
        return values[random.nextInt(values.length)];
    }

    private String datetime() {
        return "'" + (2020 + random.nextInt(5)) + "-" + two(1 + random.nextInt(12)) + "-" + two(1 + random.nextInt(28))
                + " " + two(random.nextInt(24)) + ":" + two(random.nextInt(60)) + ":" + two(random.nextInt(60)) + "'";
    }

    private String date() {
        return "'" + (2020 + random.nextInt(5)) + "-" + two(1 + random.nextInt(12)) + "-" + two(1 + random.nextInt(28)) + "'";
    }

    private static String two(int n) {
        return n < 10 ? "0" + n : Integer.toString(n);
    }

    private String zip() {
        return digits(4) + "11111";
    }

    private String digits(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append((char) ('0' + random.nextInt(10)));
        }
        return sb.toString();
    }

    private String letters(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sb.append((char) ((random.nextInt(4) == 0 ? 'A' : 'a') + random.nextInt(26)));
        }
        return sb.toString();
    }

    private String hex(int bytes) {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < bytes; i++) {
            sb.append(String.format("%02X", random.nextInt(256)));
        }
        return sb.toString();
    }

    /** sysbench's c/pad shape: groups of digits joined by dashes. */
    private String sysbenchString(int groups, int digits) {
        StringJoiner j = new StringJoiner("-");
        for (int g = 0; g < groups; g++) {
            j.add(digits(digits));
        }
        return j.toString();
    }
}
