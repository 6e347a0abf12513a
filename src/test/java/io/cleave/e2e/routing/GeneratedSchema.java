package io.cleave.e2e.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.StringJoiner;

/**
 * The schema and rows of the generated differential test: customers, orders and order_items
 * hashed on the customer id, a range-sharded ledger, a reference table of products, an
 * unsharded table of regions that lives on shard 1 (not the default shard) and labels hashed on a
 * string. Rows come from the
 * seed, so both sides and every rerun with the same seed load the same data.
 *
 * <p>orders.id is the table's AUTO_INCREMENT PRIMARY KEY without the sharding column: a global
 * unique key, kept through its lookup table. New orders mostly leave it out and get it from the
 * proxy's sequence; explicit ids of stored (or deleted) orders under other customers test the key
 * (INSERT, IGNORE, ON DUPLICATE KEY UPDATE, REPLACE). {@link #FIRST_DRAWN_ORDER} starts the
 * sequence on both sides once the rows are loaded. Doubles hold multiples of 1/8,
 * whose sums are exact in any order.
 */
final class GeneratedSchema {

    static final int CUSTOMERS = 48;
    static final int PRODUCTS = 24;
    static final int ORDERS = 160;
    static final int LEDGER = 90;
    static final String[] REGIONS = {"ne", "nw", "se", "sw", "ce", "xx"};
    static final String[] STATUSES = {"new", "paid", "shipped", "void"};
    static final String[] CATEGORIES = {"tools", "toys", "books", "food"};
    static final String[] KINDS = {"debit", "credit", "fee"};
    static final String[] WORDS = {"amber", "birch", "cedar", "delta", "ember", "fjord", "grove", "harbor", "iris",
            "juniper", "kestrel", "lumen", "maple", "nectar", "onyx", "pepper", "quartz", "raven", "sable", "thistle",
            "umber", "violet", "willow", "yarrow", "zephyr"};

    /** An order without an id, inserted after loading: the proxy's sequence and the server's counter start alike. */
    static final String FIRST_DRAWN_ORDER = "INSERT INTO orders (cust_id, product_id, status, total, qty)"
            + " VALUES (1, 1, 'new', 1.00, 1)";

    /** Names of the string-keyed labels, equal in pairs under the usual collations (case, accents, ß, trailing spaces). */
    static final String[] LABELS = {"alpha", "Alpha", "beta", "\u00c9mile", "emile", "stra\u00dfe", "strasse", "12",
        "12.0", " 12", "zeta", "\u03a9mega", "delta ", "x"};

    static final List<String> TABLES = List.of("customers", "orders", "order_items", "products", "ledger", "regions",
            "labels");

    /**
     * Customers, orders and items hashed on the customer id; ledger in account ranges; products
     * everywhere; regions on shard 1; labels hashed on their name.
     */
    static final String SHARDING_YAML = """
            sharding:
              default_shard: 0
              keyspaces:
                - { name: cust, function: hash, buckets: 64, key_type: integer }
                - { name: label, function: hash, buckets: 64, key_type: string }
                - name: acct
                  function: range
                  ranges:
                    - { from: 1, to: 25, shard: 0 }
                    - { from: 26, to: 50, shard: 1 }
                    - { from: 51, to: 75, shard: 2 }
                    - { from: 76, shard: 3 }
              tables:
                - { name: customers, keyspace: cust, column: id }
                - { name: orders, keyspace: cust, column: cust_id }
                - { name: order_items, keyspace: cust, column: cust_id }
                - { name: ledger, keyspace: acct, column: acct }
                - { name: products, type: reference }
                - { name: regions, type: unsharded, shard: 1 }
                - { name: labels, keyspace: label, column: name }
            """;

    static final List<String> DDL = List.of(
            "CREATE TABLE customers (id INT NOT NULL, name VARCHAR(20), region CHAR(2), balance DECIMAL(10,2),"
                    + " tier INT, score DOUBLE, created DATE, PRIMARY KEY (id))",
            "CREATE TABLE orders (id INT NOT NULL AUTO_INCREMENT, cust_id INT NOT NULL, product_id INT, status VARCHAR(10),"
                    + " total DECIMAL(10,2), qty INT, PRIMARY KEY (id), KEY (cust_id))",
            "CREATE TABLE order_items (cust_id INT NOT NULL, order_id INT NOT NULL, line INT NOT NULL, product_id INT,"
                    + " qty INT, price DECIMAL(8,2), PRIMARY KEY (cust_id, order_id, line))",
            "CREATE TABLE products (id INT NOT NULL, name VARCHAR(20), category VARCHAR(10), price DECIMAL(8,2),"
                    + " weight DOUBLE, PRIMARY KEY (id))",
            "CREATE TABLE ledger (acct INT NOT NULL, id INT NOT NULL, amount DECIMAL(10,2), kind VARCHAR(8),"
                    + " PRIMARY KEY (acct, id))",
            "CREATE TABLE regions (code CHAR(2) NOT NULL, name VARCHAR(20), tax DECIMAL(4,3), PRIMARY KEY (code))",
            "CREATE TABLE labels (name VARCHAR(24) NOT NULL, id INT NOT NULL, v INT, PRIMARY KEY (name, id))");

    private GeneratedSchema() {
    }

    /** The INSERTs that load the data set for {@code seed}; each table's rows in multi-row statements. */
    static List<String> inserts(long seed) {
        Random r = new Random(seed);
        List<String> out = new ArrayList<>();
        List<String> rows = new ArrayList<>();
        for (int i = 0; i < REGIONS.length; i++) {
            rows.add(row(q(REGIONS[i]), q("region " + WORDS[i]), dec(r.nextInt(200), 3)));
        }
        out.add("INSERT INTO regions (code, name, tax) VALUES " + String.join(", ", rows));
        rows.clear();
        for (int id = 1; id <= PRODUCTS; id++) {
            rows.add(row(id, q(WORDS[id % WORDS.length] + " " + id), q(pick(r, CATEGORIES)),
                    dec(100 + r.nextInt(5000), 2), eighths(r)));
        }
        out.add("INSERT INTO products (id, name, category, price, weight) VALUES " + String.join(", ", rows));
        rows.clear();
        for (int id = 1; id <= CUSTOMERS; id++) {
            rows.add(row(id, r.nextInt(8) == 0 ? "NULL" : q(pick(r, WORDS)), q(pick(r, REGIONS)),
                    dec(r.nextInt(400_000) - 50_000, 2), 1 + r.nextInt(3), eighths(r),
                    q("2024-0" + (1 + r.nextInt(9)) + "-1" + r.nextInt(10))));
        }
        out.add(insert("customers", "id, name, region, balance, tier, score, created", rows));
        rows.clear();
        List<String> items = new ArrayList<>();
        for (int id = 1; id <= ORDERS; id++) {
            int cust = 1 + r.nextInt(CUSTOMERS - 4);
            rows.add(row(id, cust, r.nextInt(10) == 0 ? "NULL" : 1 + r.nextInt(PRODUCTS), q(pick(r, STATUSES)),
                    dec(r.nextInt(100_000), 2), 1 + r.nextInt(9)));
            int lines = r.nextInt(4);
            for (int line = 1; line <= lines; line++) {
                items.add(row(cust, id, line, 1 + r.nextInt(PRODUCTS), 1 + r.nextInt(12), dec(50 + r.nextInt(9000), 2)));
            }
        }
        out.add(insert("orders", "id, cust_id, product_id, status, total, qty", rows));
        out.add(insert("order_items", "cust_id, order_id, line, product_id, qty, price", items));
        rows.clear();
        for (int id = 1; id <= LEDGER; id++) {
            rows.add(row(1 + r.nextInt(100), id, dec(r.nextInt(20_000) - 5_000, 2), q(pick(r, KINDS))));
        }
        out.add(insert("ledger", "acct, id, amount, kind", rows));
        // A customer 0: strings without digits ('abc', '') and X'..' of non-digits read as key 0.
        out.add("INSERT INTO customers (id, name, region, balance, tier, score, created)"
                + " VALUES (0, 'zero', 'xx', 0.00, 1, 0.5, '2024-01-01')");
        rows.clear();
        for (int i = 0; i < LABELS.length; i++) {
            rows.add(row(q(LABELS[i]), i + 1, r.nextInt(100)));
        }
        out.add(insert("labels", "name, id, v", rows));
        return out;
    }

    /** Rows in chunks, so each INSERT is split across shards by the proxy. */
    private static String insert(String table, String columns, List<String> rows) {
        return "INSERT INTO " + table + " (" + columns + ") VALUES " + String.join(", ", rows);
    }

    static String row(Object... values) {
        StringJoiner j = new StringJoiner(", ", "(", ")");
        for (Object v : values) {
            j.add(String.valueOf(v));
        }
        return j.toString();
    }

    static String q(String s) {
        return "'" + s.replace("'", "''") + "'";
    }

    /** A decimal literal with {@code scale} digits after the point from an integer of its smallest unit. */
    static String dec(long units, int scale) {
        return java.math.BigDecimal.valueOf(units, scale).toPlainString();
    }

    /** A double that is a multiple of 1/8, so sums are exact whatever the order. */
    static String eighths(Random r) {
        return Double.toString((r.nextInt(800) - 100) / 8.0);
    }

    static <T> T pick(Random r, T[] values) {
        return values[r.nextInt(values.length)];
    }
}
