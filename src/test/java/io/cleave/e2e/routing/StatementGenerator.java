package io.cleave.e2e.routing;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/**
 * Seeded statements over {@link GeneratedSchema}: reads of every shape a new user tries (ORDER BY
 * and LIMIT, GROUP BY and HAVING, DISTINCT, joins on the key, with the reference table and not on
 * the key, subqueries, derived tables, UNION, CTEs, window functions, expressions over aggregates),
 * writes of every kind, and session settings that change answers (sql_select_limit,
 * div_precision_increment, sql_mode). Each statement says how its result compares with one
 * server's: in order only where its ORDER BY fixes the order (it always ends with a unique key),
 * else as a multiset.
 *
 * <p>Writes never reuse an order id (orders.id is unique without the sharding column, which each
 * shard enforces only for its own rows: the documented caveat).
 */
final class StatementGenerator {

    /** Feature families, for the refusal rates the test prints. */
    enum Family {
        POINT, ORDER_LIMIT, GROUP_BY, HAVING, DISTINCT, AGGREGATE_EXPRESSION, JOIN_ON_KEY, JOIN_REFERENCE,
        JOIN_NOT_ON_KEY, SUBQUERY, DERIVED, UNION, CTE, WINDOW, UNSHARDED, RANGE, KEY_LITERAL, SESSION, WRITE
    }

    /** How a statement's outcome is compared. */
    enum Check { ORDERED, UNORDERED, WRITE, SESSION }

    /**
     * One generated statement.
     *
     * @param table the table a write changes (compared whole afterwards), else null
     */
    record Generated(Family family, Check check, String sql, String table) {
        @Override
        public String toString() {
            return family + " " + sql;
        }
    }

    private final Random r;
    /** Orders get their ids from the sequence: the next one after loading and the first drawn order. */
    private int nextOrderId = GeneratedSchema.ORDERS + 2;
    private int nextCustomerId = GeneratedSchema.CUSTOMERS + 1;
    private int nextProductId = GeneratedSchema.PRODUCTS + 1;
    private int nextLedgerId = GeneratedSchema.LEDGER + 1;
    private int nextLine = 10;
    /** The session's sql_select_limit, or 0 when it is the default. */
    private int selectLimit;
    private boolean ansiQuotes;

    StatementGenerator(long seed) {
        this.r = new Random(seed);
    }

    Generated next() {
        int roll = r.nextInt(100);
        if (roll < 4) {
            return session();
        }
        if (roll < 20) {
            return write();
        }
        while (true) {
            Generated g = read();
            // Under sql_select_limit which rows come back is only defined for a total order.
            if (selectLimit == 0 || g.check() == Check.ORDERED) {
                return g;
            }
        }
    }

    // ---- reads -----------------------------------------------------------------------------

    private Generated read() {
        if (r.nextInt(8) == 0) {
            return keyLiteral();
        }
        Family f = Family.values()[r.nextInt(Family.SESSION.ordinal())];
        return switch (f) {
            case POINT -> point();
            case ORDER_LIMIT -> orderLimit();
            case GROUP_BY -> groupBy(false);
            case HAVING -> groupBy(true);
            case DISTINCT -> distinct();
            case AGGREGATE_EXPRESSION -> aggregateExpression();
            case JOIN_ON_KEY -> joinOnKey();
            case JOIN_REFERENCE -> joinReference();
            case JOIN_NOT_ON_KEY -> joinNotOnKey();
            case SUBQUERY -> subquery();
            case DERIVED -> derived();
            case UNION -> union();
            case CTE -> cte();
            case WINDOW -> window();
            case UNSHARDED -> unsharded();
            case RANGE -> range();
            case KEY_LITERAL -> keyLiteral();
            default -> throw new IllegalStateException(f.toString());
        };
    }

    /** A table of the schema with an alias, its unique key and columns by kind. */
    private record Source(String table, String alias, String key, String uniqueKey, String[] numbers,
                          String[] groups, String[] all) {
        String ref(String column) {
            return alias + "." + column;
        }

        String unique() {
            StringBuilder out = new StringBuilder();
            for (String k : uniqueKey.split(",")) {
                out.append(out.length() == 0 ? "" : ", ").append(alias).append('.').append(k.strip());
            }
            return out.toString();
        }
    }

    private static final Source CUSTOMERS = new Source("customers", "c", "id", "id",
            new String[] {"balance", "tier", "score"}, new String[] {"region", "tier", "name"},
            new String[] {"id", "name", "region", "balance", "tier", "score", "created"});
    private static final Source ORDERS = new Source("orders", "o", "cust_id", "id",
            new String[] {"total", "qty"}, new String[] {"status", "cust_id", "product_id", "qty"},
            new String[] {"id", "cust_id", "product_id", "status", "total", "qty"});
    private static final Source ITEMS = new Source("order_items", "i", "cust_id", "cust_id, order_id, line",
            new String[] {"qty", "price"}, new String[] {"product_id", "line", "cust_id"},
            new String[] {"cust_id", "order_id", "line", "product_id", "qty", "price"});
    private static final Source LEDGER = new Source("ledger", "l", "acct", "acct, id",
            new String[] {"amount"}, new String[] {"kind", "acct"}, new String[] {"acct", "id", "amount", "kind"});
    private static final Source PRODUCTS = new Source("products", "p", null, "id",
            new String[] {"price", "weight"}, new String[] {"category"},
            new String[] {"id", "name", "category", "price", "weight"});
    private static final Source[] SHARDED = {CUSTOMERS, ORDERS, ITEMS, LEDGER};
    private static final Source[] ALL = {CUSTOMERS, ORDERS, ITEMS, LEDGER, PRODUCTS};

    private String from(Source s) {
        return table(s.table()) + " " + s.alias();
    }

    /** A table name, double-quoted now and then while ANSI_QUOTES is on. */
    private String table(String name) {
        return ansiQuotes && r.nextBoolean() ? "\"" + name + "\"" : name;
    }

    private String keyValue(Source s) {
        return s == LEDGER ? Integer.toString(1 + r.nextInt(100)) : Integer.toString(1 + r.nextInt(GeneratedSchema.CUSTOMERS + 4));
    }

    /** A filter on one table, sometimes on its sharding key. */
    private String predicate(Source s) {
        String a = s.alias();
        int k = r.nextInt(10);
        if (s.key() != null && k < 2) {
            return a + "." + s.key() + " = " + keyValue(s);
        }
        if (s.key() != null && k < 3) {
            return a + "." + s.key() + " IN (" + keyValue(s) + ", " + keyValue(s) + ", " + keyValue(s) + ")";
        }
        return switch (s.table()) {
            case "customers" -> pick(a + ".tier = " + (1 + r.nextInt(3)), a + ".balance > " + (r.nextInt(3000) - 500),
                    a + ".region = '" + pick(GeneratedSchema.REGIONS) + "'", a + ".name LIKE '" + (char) ('a' + r.nextInt(26)) + "%'",
                    a + ".score < " + r.nextInt(100), a + ".id BETWEEN " + r.nextInt(20) + " AND " + (20 + r.nextInt(30)));
            case "orders" -> pick(a + ".status = '" + pick(GeneratedSchema.STATUSES) + "'", a + ".total > " + r.nextInt(900),
                    a + ".qty BETWEEN 2 AND " + (2 + r.nextInt(6)), a + ".product_id IS NULL", a + ".id < " + r.nextInt(200));
            case "order_items" -> pick(a + ".qty > " + r.nextInt(12), a + ".product_id = " + (1 + r.nextInt(24)),
                    a + ".price < " + r.nextInt(90));
            case "ledger" -> pick(a + ".kind = '" + pick(GeneratedSchema.KINDS) + "'", a + ".amount < " + (r.nextInt(200) - 50),
                    a + ".acct BETWEEN " + r.nextInt(60) + " AND " + (40 + r.nextInt(60)));
            default -> pick(a + ".category = '" + pick(GeneratedSchema.CATEGORIES) + "'", a + ".price > " + r.nextInt(50));
        };
    }

    private String where(Source s) {
        return r.nextInt(3) == 0 ? "" : " WHERE " + predicate(s);
    }

    private String limit() {
        int roll = r.nextInt(4);
        if (roll == 0) {
            return "";
        }
        int n = 1 + r.nextInt(12);
        return roll == 1 ? " LIMIT " + n : roll == 2 ? " LIMIT " + n + " OFFSET " + r.nextInt(20) : " LIMIT " + r.nextInt(10) + ", " + n;
    }

    private Generated point() {
        Source s = pickSource(SHARDED);
        String k = keyValue(s);
        String condition = switch (r.nextInt(6)) {
            case 0 -> s.ref(s.key()) + " = '" + k + "'";
            case 1 -> s.ref(s.key()) + " IN (" + k + ", " + k + ", -" + k + ")";
            case 2 -> s.ref(s.key()) + " = " + k + " AND " + s.ref(s.key()) + " = " + keyValue(s);
            case 3 -> s.ref(s.key()) + " <=> " + k;
            default -> s.ref(s.key()) + " = " + k;
        };
        String sql = "SELECT " + columns(s) + " FROM " + from(s) + " WHERE " + condition + " ORDER BY " + s.unique();
        return new Generated(Family.POINT, Check.ORDERED, sql, null);
    }

    private String columns(Source s) {
        List<String> out = new ArrayList<>();
        for (String c : s.all()) {
            if (r.nextInt(3) > 0) {
                out.add(s.ref(c));
            }
        }
        return out.isEmpty() ? s.ref(s.all()[0]) : String.join(", ", out);
    }

    private Generated orderLimit() {
        Source s = pickSource(ALL);
        if (r.nextInt(4) == 0) {
            // ORDER BY a position, an alias or an expression that is not selected.
            String x = s.ref(pick(s.numbers()));
            String sort = pick("2 DESC", "v", x + " * -1", "ABS(" + x + ")");
            return new Generated(Family.ORDER_LIMIT, Check.ORDERED, "SELECT " + s.unique() + ", " + x + " AS v FROM "
                    + from(s) + where(s) + " ORDER BY " + sort + ", " + s.unique() + limit(), null);
        }
        String sort = s.ref(pick(s.all())) + (r.nextBoolean() ? " DESC" : "");
        String sql = "SELECT " + columns(s) + " FROM " + from(s) + where(s) + " ORDER BY " + sort + ", " + s.unique() + limit();
        return new Generated(Family.ORDER_LIMIT, Check.ORDERED, sql, null);
    }

    private String aggregates(Source s) {
        String x = s.ref(pick(s.numbers()));
        List<String> out = new ArrayList<>();
        out.add("COUNT(*)");
        for (String a : new String[] {"SUM(" + x + ")", "MIN(" + x + ")", "MAX(" + x + ")", "AVG(" + x + ")",
                "COUNT(" + x + ")"}) {
            if (r.nextBoolean()) {
                out.add(a);
            }
        }
        return String.join(", ", out);
    }

    private Generated groupBy(boolean having) {
        Source s = pickSource(ALL);
        String g = s.ref(pick(s.groups()));
        if (!having && r.nextInt(5) == 0) {
            return new Generated(Family.GROUP_BY, Check.ORDERED, "SELECT " + aggregates(s) + " FROM " + from(s) + where(s), null);
        }
        String sql = "SELECT " + g + ", " + aggregates(s) + " FROM " + from(s) + where(s) + " GROUP BY " + g;
        if (having) {
            String x = s.ref(pick(s.numbers()));
            sql += " HAVING " + pick("COUNT(*) > " + r.nextInt(6), "SUM(" + x + ") > " + r.nextInt(500),
                    "MAX(" + x + ") < " + r.nextInt(900) + " AND COUNT(*) >= 2", "MIN(" + x + ") IS NOT NULL",
                    "AVG(" + x + ") > " + r.nextInt(300));
        }
        boolean ordered = r.nextInt(4) > 0;
        if (ordered) {
            // An aggregate first, the group key to break its ties.
            String first = r.nextInt(3) == 0 ? "COUNT(*) DESC, " : "";
            sql += " ORDER BY " + first + g + (r.nextBoolean() ? " DESC" : "") + limit();
        }
        return new Generated(having ? Family.HAVING : Family.GROUP_BY, ordered ? Check.ORDERED : Check.UNORDERED, sql, null);
    }

    private Generated distinct() {
        Source s = pickSource(ALL);
        String g = s.ref(pick(s.groups()));
        int roll = r.nextInt(4);
        if (roll == 0) {
            return new Generated(Family.DISTINCT, Check.ORDERED, "SELECT COUNT(DISTINCT " + g + ") FROM " + from(s) + where(s), null);
        }
        String g2 = s.ref(pick(s.groups()));
        String items = g.equals(g2) ? g : g + ", " + g2;
        if (roll == 1) {
            return new Generated(Family.DISTINCT, Check.UNORDERED, "SELECT DISTINCT " + items + " FROM " + from(s) + where(s), null);
        }
        return new Generated(Family.DISTINCT, Check.ORDERED, "SELECT DISTINCT " + items + " FROM " + from(s) + where(s)
                + " ORDER BY " + items + limit(), null);
    }

    private Generated aggregateExpression() {
        Source s = pickSource(ALL);
        String x = s.ref(pick(s.numbers()));
        String e = pick("SUM(" + x + ") / COUNT(*)", "COUNT(*) + 1", "ROUND(AVG(" + x + "), 1)", "MAX(" + x + ") - MIN(" + x + ")",
                "SUM(" + x + ") * 2", "AVG(" + x + ") / 3");
        if (r.nextBoolean()) {
            return new Generated(Family.AGGREGATE_EXPRESSION, Check.ORDERED, "SELECT " + e + " FROM " + from(s) + where(s), null);
        }
        String g = s.ref(pick(s.groups()));
        return new Generated(Family.AGGREGATE_EXPRESSION, Check.ORDERED, "SELECT " + g + ", " + e + " FROM " + from(s)
                + where(s) + " GROUP BY " + g + " ORDER BY " + g, null);
    }

    private Generated joinOnKey() {
        String join = r.nextInt(3) == 0 ? "LEFT JOIN" : "JOIN";
        return switch (r.nextInt(6)) {
            case 0 -> ordered(Family.JOIN_ON_KEY, "SELECT c.id, c.name, o.id, o.total FROM " + from(CUSTOMERS) + " " + join + " "
                    + from(ORDERS) + " ON o.cust_id = c.id" + where(CUSTOMERS) + " ORDER BY c.id, o.id" + limit());
            case 1 -> ordered(Family.JOIN_ON_KEY, "SELECT c.region, COUNT(*), SUM(o.total), AVG(o.qty) FROM " + from(CUSTOMERS)
                    + " " + join + " " + from(ORDERS) + " ON o.cust_id = c.id" + where(ORDERS) + " GROUP BY c.region ORDER BY c.region");
            case 2 -> ordered(Family.JOIN_ON_KEY, "SELECT c.id, COUNT(o.id), MAX(o.total) FROM " + from(CUSTOMERS)
                    + " LEFT JOIN " + from(ORDERS) + " ON o.cust_id = c.id GROUP BY c.id ORDER BY c.id" + limit());
            case 3 -> ordered(Family.JOIN_ON_KEY, "SELECT o.id, i.line, i.qty FROM " + from(ORDERS) + " " + join + " "
                    + from(ITEMS) + " ON i.cust_id = o.cust_id AND i.order_id = o.id" + where(ORDERS) + " ORDER BY o.id, i.line" + limit());
            case 4 -> ordered(Family.JOIN_ON_KEY, "SELECT o.status, SUM(i.qty * i.price), COUNT(*) FROM " + from(CUSTOMERS) + " JOIN "
                    + from(ORDERS) + " ON o.cust_id = c.id JOIN " + from(ITEMS) + " ON i.cust_id = c.id AND i.order_id = o.id"
                    + where(CUSTOMERS) + " GROUP BY o.status ORDER BY o.status");
            default -> ordered(Family.JOIN_ON_KEY, "SELECT c.id, o.id FROM " + from(ORDERS) + " RIGHT JOIN " + from(CUSTOMERS)
                    + " ON o.cust_id = c.id" + where(CUSTOMERS) + " ORDER BY c.id, o.id");
        };
    }

    private Generated joinReference() {
        String value = Integer.toString(1 + r.nextInt(12));
        return switch (r.nextInt(10)) {
            case 0 -> ordered(Family.JOIN_REFERENCE, "SELECT o.id, p.name, p.price FROM " + from(ORDERS) + " JOIN " + from(PRODUCTS)
                    + " ON p.id = o.product_id" + where(ORDERS) + " ORDER BY o.id" + limit());
            case 1 -> ordered(Family.JOIN_REFERENCE, "SELECT p.category, COUNT(*), SUM(o.total) FROM " + from(ORDERS) + " JOIN "
                    + from(PRODUCTS) + " ON p.id = o.product_id GROUP BY p.category ORDER BY p.category");
            case 2 -> unordered(Family.JOIN_REFERENCE, "SELECT p.id FROM " + from(PRODUCTS)
                    + " WHERE p.id IN (SELECT product_id FROM order_items)");
            case 3 -> ordered(Family.JOIN_REFERENCE, "SELECT p.id FROM " + from(PRODUCTS) + " WHERE NOT EXISTS (SELECT 1 FROM "
                    + from(ITEMS) + " WHERE i.product_id = p.id AND i.qty = " + value + ") ORDER BY p.id");
            case 4 -> ordered(Family.JOIN_REFERENCE, "SELECT p.id, COUNT(*) FROM " + from(PRODUCTS) + " LEFT JOIN " + from(ITEMS)
                    + " ON i.product_id = p.id GROUP BY p.id ORDER BY p.id");
            case 5 -> ordered(Family.JOIN_REFERENCE, "SELECT COUNT(*) FROM " + from(PRODUCTS) + " LEFT JOIN " + from(ORDERS)
                    + " ON o.id = p.id");
            case 6 -> ordered(Family.JOIN_REFERENCE, "SELECT o.id, p.id FROM " + from(ORDERS) + " LEFT JOIN " + from(PRODUCTS)
                    + " ON p.id = o.product_id AND p.price > " + value + " ORDER BY o.id");
            case 7 -> ordered(Family.JOIN_REFERENCE, "SELECT o.id, p.name FROM " + from(PRODUCTS) + " RIGHT JOIN " + from(ORDERS)
                    + " ON p.id = o.product_id" + where(ORDERS) + " ORDER BY o.id");
            case 8 -> ordered(Family.JOIN_REFERENCE, "SELECT p.id, p.name FROM " + from(PRODUCTS) + " WHERE EXISTS (SELECT 1 FROM "
                    + from(ORDERS) + " WHERE o.product_id = p.id AND o.cust_id = " + keyValue(ORDERS) + ") ORDER BY p.id");
            default -> ordered(Family.JOIN_REFERENCE, "SELECT c.id, p.name FROM " + from(CUSTOMERS) + " CROSS JOIN " + from(PRODUCTS)
                    + " WHERE p.id = " + value + " AND c.tier = 2 ORDER BY c.id");
        };
    }

    private Generated joinNotOnKey() {
        return switch (r.nextInt(5)) {
            case 0 -> ordered(Family.JOIN_NOT_ON_KEY, "SELECT o.id, i.line FROM " + from(ORDERS) + " JOIN " + from(ITEMS)
                    + " ON i.order_id = o.id" + where(ORDERS) + " ORDER BY o.id, i.line, i.cust_id");
            case 1 -> ordered(Family.JOIN_NOT_ON_KEY, "SELECT c.id, o.id FROM " + from(CUSTOMERS) + " JOIN " + from(ORDERS)
                    + " ON o.id = c.id ORDER BY c.id");
            case 2 -> ordered(Family.JOIN_NOT_ON_KEY, "SELECT l.acct, l.id, c.name FROM " + from(LEDGER) + " JOIN " + from(CUSTOMERS)
                    + " ON c.id = l.acct" + where(LEDGER) + " ORDER BY l.acct, l.id");
            case 3 -> ordered(Family.JOIN_NOT_ON_KEY, "SELECT c.id, d.id FROM customers c JOIN customers d ON d.tier = c.tier"
                    + " AND d.id = c.id + 1 ORDER BY c.id");
            default -> ordered(Family.JOIN_NOT_ON_KEY, "SELECT c.id, o.id FROM " + from(CUSTOMERS) + " JOIN " + from(ORDERS)
                    + " ON o.cust_id = c.id WHERE c.id = " + keyValue(CUSTOMERS) + " AND o.cust_id = " + keyValue(ORDERS)
                    + " ORDER BY o.id");
        };
    }

    private Generated subquery() {
        String k = keyValue(ORDERS);
        return switch (r.nextInt(13)) {
            case 10 -> ordered(Family.SUBQUERY, "SELECT c.id, c.name FROM " + from(CUSTOMERS) + " LEFT JOIN " + from(ORDERS)
                    + " ON o.cust_id = c.id WHERE o.cust_id = " + k + " ORDER BY c.id, o.id");
            case 11 -> ordered(Family.SUBQUERY, "SELECT o.cust_id, COUNT(*) FROM " + from(ORDERS) + " WHERE o.cust_id IN"
                    + " (SELECT c.id FROM customers c WHERE c.tier = " + (1 + r.nextInt(3)) + ") GROUP BY o.cust_id"
                    + " ORDER BY o.cust_id");
            case 12 -> ordered(Family.SUBQUERY, "SELECT o.id, (SELECT p.name FROM products p WHERE p.id = o.product_id)"
                    + " AS pname FROM " + from(ORDERS) + where(ORDERS) + " ORDER BY o.id" + limit());
            case 0 -> ordered(Family.SUBQUERY, "SELECT c.id FROM " + from(CUSTOMERS) + " WHERE EXISTS (SELECT 1 FROM " + from(ORDERS)
                    + " WHERE o.cust_id = c.id AND " + predicate(ORDERS) + ") ORDER BY c.id");
            case 1 -> ordered(Family.SUBQUERY, "SELECT c.id FROM " + from(CUSTOMERS) + " WHERE NOT EXISTS (SELECT 1 FROM "
                    + from(ORDERS) + " WHERE o.cust_id = c.id AND " + predicate(ORDERS) + ") ORDER BY c.id" + limit());
            case 2 -> ordered(Family.SUBQUERY, "SELECT c.id, (SELECT COUNT(*) FROM " + from(ORDERS)
                    + " WHERE o.cust_id = c.id) AS n FROM " + from(CUSTOMERS) + where(CUSTOMERS) + " ORDER BY c.id");
            case 3 -> ordered(Family.SUBQUERY, "SELECT o.id FROM " + from(ORDERS) + " WHERE o.cust_id IN (SELECT id FROM customers"
                    + " WHERE tier = " + (1 + r.nextInt(3)) + ") ORDER BY o.id");
            case 4 -> ordered(Family.SUBQUERY, "SELECT o.id FROM " + from(ORDERS) + " WHERE o.product_id IN (SELECT id FROM products"
                    + " WHERE category = '" + pick(GeneratedSchema.CATEGORIES) + "') ORDER BY o.id");
            case 5 -> ordered(Family.SUBQUERY, "SELECT o.id FROM " + from(ORDERS) + " WHERE o.total > (SELECT AVG(total) FROM orders)"
                    + " ORDER BY o.id");
            case 6 -> ordered(Family.SUBQUERY, "SELECT c.id FROM " + from(CUSTOMERS) + " WHERE NOT EXISTS (SELECT 1 FROM "
                    + from(ORDERS) + " WHERE o.cust_id = c.id AND o.cust_id = " + k + ") ORDER BY c.id");
            case 7 -> ordered(Family.SUBQUERY, "SELECT o.id FROM " + from(ORDERS) + " WHERE o.id IN (SELECT order_id FROM "
                    + "order_items WHERE qty > " + r.nextInt(12) + ") ORDER BY o.id");
            case 8 -> ordered(Family.SUBQUERY, "SELECT c.id, (SELECT MAX(o.total) FROM " + from(ORDERS)
                    + " WHERE o.cust_id = c.id AND o.status = 'paid') FROM " + from(CUSTOMERS) + " WHERE c.id = " + k);
            default -> ordered(Family.SUBQUERY, "SELECT c.id FROM " + from(CUSTOMERS) + " WHERE c.id IN (SELECT o.cust_id FROM "
                    + from(ORDERS) + " WHERE o.cust_id = c.id AND o.qty > " + r.nextInt(9) + ") ORDER BY c.id");
        };
    }

    private Generated derived() {
        return switch (r.nextInt(6)) {
            case 0 -> ordered(Family.DERIVED, "SELECT d.cust_id, d.n, d.s FROM (SELECT cust_id, COUNT(*) AS n, SUM(total) AS s"
                    + " FROM orders GROUP BY cust_id) d ORDER BY d.cust_id" + limit());
            case 1 -> ordered(Family.DERIVED, "SELECT COUNT(*), SUM(d.total) FROM (SELECT * FROM orders o" + where(ORDERS) + ") d");
            case 2 -> ordered(Family.DERIVED, "SELECT SUM(d.total) FROM (SELECT total FROM orders ORDER BY total DESC, id"
                    + " LIMIT " + (1 + r.nextInt(9)) + ") d");
            case 3 -> ordered(Family.DERIVED, "SELECT d.status, COUNT(*) FROM (SELECT status FROM orders o" + where(ORDERS)
                    + ") d GROUP BY d.status ORDER BY d.status");
            case 4 -> ordered(Family.DERIVED, "SELECT d.status FROM (SELECT DISTINCT status FROM orders) d ORDER BY d.status");
            default -> ordered(Family.DERIVED, "SELECT d.tier, COUNT(*) FROM (SELECT c.tier, o.id FROM customers c JOIN orders o"
                    + " ON o.cust_id = c.id) d GROUP BY d.tier ORDER BY d.tier");
        };
    }

    private Generated union() {
        String all = r.nextBoolean() ? " ALL" : "";
        return switch (r.nextInt(4)) {
            case 0 -> unordered(Family.UNION, "SELECT id FROM customers WHERE tier = " + (1 + r.nextInt(3)) + " UNION" + all
                    + " SELECT cust_id FROM orders WHERE status = '" + pick(GeneratedSchema.STATUSES) + "'");
            case 1 -> unordered(Family.UNION, "SELECT status FROM orders WHERE qty > 5 UNION" + all + " SELECT status FROM orders"
                    + " WHERE total < 100");
            case 2 -> ordered(Family.UNION, "SELECT name FROM products WHERE id < 5 UNION SELECT name FROM products WHERE id > 20"
                    + " ORDER BY name");
            default -> unordered(Family.UNION, "SELECT id, total FROM orders WHERE cust_id = " + keyValue(ORDERS) + " UNION" + all
                    + " SELECT id, total FROM orders WHERE cust_id = " + keyValue(ORDERS));
        };
    }

    private Generated cte() {
        return switch (r.nextInt(5)) {
            case 0 -> ordered(Family.CTE, "WITH x AS (SELECT cust_id, SUM(total) AS s FROM orders GROUP BY cust_id) SELECT c.id, x.s"
                    + " FROM customers c JOIN x ON x.cust_id = c.id ORDER BY c.id");
            case 1 -> ordered(Family.CTE, "WITH x AS (SELECT * FROM orders WHERE status = '" + pick(GeneratedSchema.STATUSES)
                    + "') SELECT COUNT(*), MAX(x.total) FROM x");
            case 2 -> ordered(Family.CTE, "WITH x AS (SELECT id, cust_id FROM orders) SELECT COUNT(*) FROM x a JOIN x b ON b.id = a.id");
            case 3 -> ordered(Family.CTE, "WITH t AS (SELECT id, tier FROM customers) SELECT t.tier, COUNT(*) FROM t GROUP BY t.tier"
                    + " ORDER BY t.tier");
            default -> ordered(Family.CTE, "WITH RECURSIVE n AS (SELECT 1 AS k UNION ALL SELECT k + 1 FROM n WHERE k < 4)"
                    + " SELECT n.k, COUNT(o.id) FROM n LEFT JOIN orders o ON o.qty = n.k GROUP BY n.k ORDER BY n.k");
        };
    }

    private Generated window() {
        return switch (r.nextInt(4)) {
            case 0 -> ordered(Family.WINDOW, "SELECT o.id, o.cust_id, ROW_NUMBER() OVER (PARTITION BY o.cust_id ORDER BY o.id) AS rn"
                    + " FROM " + from(ORDERS) + where(ORDERS) + " ORDER BY o.id");
            case 1 -> ordered(Family.WINDOW, "SELECT o.id, SUM(o.total) OVER (PARTITION BY o.status ORDER BY o.id) AS run FROM "
                    + from(ORDERS) + " ORDER BY o.id");
            case 2 -> ordered(Family.WINDOW, "SELECT o.id, RANK() OVER (ORDER BY o.total DESC, o.id) AS rk FROM " + from(ORDERS)
                    + " WHERE o.cust_id = " + keyValue(ORDERS) + " ORDER BY o.id");
            default -> ordered(Family.WINDOW, "SELECT d.id FROM (SELECT o.id, ROW_NUMBER() OVER (ORDER BY o.total, o.id) AS rn"
                    + " FROM orders o) d WHERE d.rn <= 3 ORDER BY d.id");
        };
    }

    private Generated unsharded() {
        return switch (r.nextInt(4)) {
            case 0 -> ordered(Family.UNSHARDED, "SELECT code, name, tax FROM " + table("regions") + " ORDER BY code");
            case 1 -> ordered(Family.UNSHARDED, "SELECT c.id, g.name FROM " + from(CUSTOMERS) + " JOIN regions g ON g.code = c.region"
                    + " WHERE c.id = " + keyValue(CUSTOMERS));
            case 2 -> ordered(Family.UNSHARDED, "SELECT g.code, COUNT(c.id) FROM regions g LEFT JOIN " + from(CUSTOMERS)
                    + " ON c.region = g.code GROUP BY g.code ORDER BY g.code");
            default -> ordered(Family.UNSHARDED, "SELECT COUNT(*), SUM(tax) FROM regions");
        };
    }

    private Generated range() {
        return switch (r.nextInt(3)) {
            case 0 -> ordered(Family.RANGE, "SELECT l.acct, l.id, l.amount FROM " + from(LEDGER) + " WHERE l.acct BETWEEN "
                    + r.nextInt(50) + " AND " + (30 + r.nextInt(70)) + " ORDER BY l.amount, l.acct, l.id" + limit());
            case 1 -> ordered(Family.RANGE, "SELECT l.kind, COUNT(*), SUM(l.amount), AVG(l.amount) FROM " + from(LEDGER) + where(LEDGER)
                    + " GROUP BY l.kind ORDER BY l.kind");
            default -> ordered(Family.RANGE, "SELECT l.acct, l.id FROM " + from(LEDGER) + " WHERE l.acct IN (" + keyValue(LEDGER)
                    + ", " + keyValue(LEDGER) + ") ORDER BY l.acct, l.id");
        };
    }

    /** A key of the customers' keyspace that has rows (0 included: many literals read as 0). */
    private int customerKey() {
        return r.nextInt(GeneratedSchema.CUSTOMERS + 1);
    }

    /**
     * Key conditions with literals of every form the server reads in the key column's context
     * ({@link KeyLiterals}), in every shape that routes by them: a point read, IN lists, the arms of
     * a UNION ALL, subqueries, derived tables, CTEs, joins on the key, the range keyspace and a
     * string key.
     */
    private Generated keyLiteral() {
        if (r.nextInt(4) == 0) {
            return labelLiteral();
        }
        String a = KeyLiterals.integer(r, customerKey());
        String b = KeyLiterals.integer(r, customerKey());
        return switch (r.nextInt(10)) {
            case 0 -> ordered(Family.KEY_LITERAL, "SELECT c.id, c.name, c.tier FROM " + from(CUSTOMERS) + " WHERE c.id = " + a
                    + " ORDER BY c.id");
            case 1 -> ordered(Family.KEY_LITERAL, "SELECT c.id, c.tier FROM " + from(CUSTOMERS) + " WHERE c.id IN (" + a + ", "
                    + b + ") ORDER BY c.id");
            case 2 -> unordered(Family.KEY_LITERAL, "SELECT c.id, c.tier FROM customers c WHERE c.id = " + a
                    + " UNION ALL SELECT c.id, c.tier FROM customers c WHERE c.id = " + b);
            case 3 -> ordered(Family.KEY_LITERAL, "SELECT id, tier FROM customers WHERE id = " + a
                    + " UNION ALL SELECT id, tier FROM customers WHERE id = " + b + " ORDER BY 1, 2");
            case 4 -> ordered(Family.KEY_LITERAL, "SELECT o.id, o.total FROM " + from(ORDERS) + " WHERE o.cust_id IN (SELECT c.id"
                    + " FROM customers c WHERE c.id = " + a + ") ORDER BY o.id");
            case 5 -> ordered(Family.KEY_LITERAL, "SELECT d.id, d.tier FROM (SELECT c.id, c.tier FROM customers c WHERE c.id = "
                    + a + ") d ORDER BY d.id");
            case 6 -> unordered(Family.KEY_LITERAL, "SELECT d.id FROM (SELECT id FROM customers WHERE id = " + a
                    + " UNION ALL SELECT cust_id FROM orders WHERE cust_id = " + b + ") d");
            case 7 -> ordered(Family.KEY_LITERAL, "WITH x AS (SELECT id, cust_id, total FROM orders WHERE cust_id = " + a
                    + ") SELECT x.id, x.total FROM x ORDER BY x.id");
            case 8 -> ordered(Family.KEY_LITERAL, "SELECT c.id, o.id FROM " + from(CUSTOMERS) + " JOIN " + from(ORDERS)
                    + " ON o.cust_id = c.id WHERE c.id = " + a + " ORDER BY o.id");
            default -> ordered(Family.KEY_LITERAL, "SELECT l.acct, l.id, l.amount FROM " + from(LEDGER) + " WHERE l.acct = "
                    + KeyLiterals.integer(r, 1 + r.nextInt(100)) + " ORDER BY l.acct, l.id");
        };
    }

    private Generated labelLiteral() {
        String a = KeyLiterals.string(r, pick(GeneratedSchema.LABELS).strip());
        String b = KeyLiterals.string(r, pick(GeneratedSchema.LABELS).strip());
        return switch (r.nextInt(4)) {
            case 0 -> ordered(Family.KEY_LITERAL, "SELECT g.name, g.id, g.v FROM labels g WHERE g.name = " + a + " ORDER BY g.id");
            case 1 -> ordered(Family.KEY_LITERAL, "SELECT g.id FROM labels g WHERE g.name IN (" + a + ", " + b + ") ORDER BY g.id");
            case 2 -> unordered(Family.KEY_LITERAL, "SELECT name, id FROM labels WHERE name = " + a
                    + " UNION ALL SELECT name, id FROM labels WHERE name = " + b);
            default -> ordered(Family.KEY_LITERAL, "SELECT g.id FROM labels g WHERE g.name COLLATE utf8mb4_bin = '"
                    + pick(GeneratedSchema.LABELS) + "' ORDER BY g.id");
        };
    }

    // ---- session -----------------------------------------------------------------------------

    private Generated session() {
        return switch (r.nextInt(6)) {
            case 4 -> new Generated(Family.SESSION, Check.SESSION, "BEGIN", null);
            case 5 -> new Generated(Family.SESSION, Check.SESSION, r.nextBoolean() ? "COMMIT" : "ROLLBACK", null);
            case 0 -> {
                selectLimit = r.nextInt(3) == 0 ? 0 : 1 + r.nextInt(8);
                yield new Generated(Family.SESSION, Check.SESSION, "SET sql_select_limit = "
                        + (selectLimit == 0 ? "DEFAULT" : Integer.toString(selectLimit)), null);
            }
            case 1 -> new Generated(Family.SESSION, Check.SESSION, "SET div_precision_increment = " + r.nextInt(9), null);
            case 2 -> {
                ansiQuotes = r.nextBoolean();
                yield new Generated(Family.SESSION, Check.SESSION, "SET sql_mode = '"
                        + (ansiQuotes ? "ANSI_QUOTES,STRICT_TRANS_TABLES" : pick("STRICT_TRANS_TABLES", "PIPES_AS_CONCAT",
                        "NO_BACKSLASH_ESCAPES,STRICT_ALL_TABLES")) + "'", null);
            }
            default -> unordered(Family.SESSION, "SELECT id FROM " + table("customers") + " WHERE id = " + keyValue(CUSTOMERS)
                    + "; SELECT 1");
        };
    }

    // ---- writes ------------------------------------------------------------------------------

    private Generated write() {
        int k = 1 + r.nextInt(GeneratedSchema.CUSTOMERS + 4);
        return switch (r.nextInt(26)) {
            case 22 -> write("orders", "INSERT INTO orders (id, cust_id, product_id, status, total, qty) VALUES ("
                    + (1 + r.nextInt(GeneratedSchema.ORDERS)) + ", " + (1 + r.nextInt(GeneratedSchema.CUSTOMERS + 4))
                    + ", 2, 'new', 3.50, 1)" + (r.nextBoolean() ? ", (" + (1 + r.nextInt(GeneratedSchema.ORDERS)) + ", "
                    + (1 + r.nextInt(GeneratedSchema.CUSTOMERS)) + ", 3, 'paid', 1.25, 2)" : ""));
            case 23 -> write("orders", "INSERT INTO orders (id, cust_id, product_id, status, total, qty) VALUES ("
                    + (1 + r.nextInt(GeneratedSchema.ORDERS)) + ", " + (1 + r.nextInt(GeneratedSchema.CUSTOMERS + 4))
                    + ", 4, 'new', 2.00, 1) ON DUPLICATE KEY UPDATE qty = qty + 1, status = 'paid'");
            case 24 -> write("orders", "INSERT IGNORE INTO orders (id, cust_id, product_id, status, total, qty) VALUES ("
                    + (1 + r.nextInt(GeneratedSchema.ORDERS)) + ", " + (1 + r.nextInt(GeneratedSchema.CUSTOMERS + 4))
                    + ", 5, 'void', 0.50, 1), (" + (1 + r.nextInt(GeneratedSchema.ORDERS)) + ", "
                    + (1 + r.nextInt(GeneratedSchema.CUSTOMERS)) + ", 6, 'void', 0.75, 1)");
            case 25 -> write("orders", "REPLACE INTO orders (id, cust_id, product_id, status, total, qty) VALUES ("
                    + (1 + r.nextInt(GeneratedSchema.ORDERS)) + ", " + (1 + r.nextInt(GeneratedSchema.CUSTOMERS + 4))
                    + ", 7, 'shipped', 4.25, 3)");
            case 19 -> write("customers", "UPDATE customers SET score = score + 1 WHERE id = "
                    + KeyLiterals.integer(r, customerKey()));
            case 20 -> write("ledger", r.nextBoolean()
                    ? "UPDATE ledger SET amount = amount + 1 WHERE acct = " + KeyLiterals.integer(r, 1 + r.nextInt(100))
                    : "INSERT INTO ledger (acct, id, amount, kind) VALUES (" + KeyLiterals.integer(r, 1 + r.nextInt(100))
                    + ", " + (nextLedgerId++) + ", 1.25, 'fee')");
            case 21 -> write("labels", "UPDATE labels SET v = v + 1 WHERE name = "
                    + KeyLiterals.string(r, pick(GeneratedSchema.LABELS).strip()));
            case 16 -> write("orders", "UPDATE orders o JOIN customers c ON c.id = o.cust_id SET o.qty = o.qty + c.tier WHERE "
                    + predicate(CUSTOMERS));
            case 17 -> write("order_items", "DELETE FROM order_items WHERE NOT EXISTS (SELECT 1 FROM orders o WHERE"
                    + " o.cust_id = order_items.cust_id AND o.id = order_items.order_id)");
            case 18 -> write("customers", "UPDATE customers c SET c.balance = (SELECT COALESCE(SUM(o.total), 0) FROM orders o"
                    + " WHERE o.cust_id = c.id) WHERE c.tier = " + (1 + r.nextInt(3)));
            case 0 -> write("customers", "INSERT INTO customers (id, name, region, balance, tier, score, created) VALUES "
                    + customerRow() + (r.nextBoolean() ? ", " + customerRow() : ""));
            case 1 -> write("orders", "INSERT INTO orders (cust_id, product_id, status, total, qty) VALUES " + orderRow()
                    + ", " + orderRow() + (r.nextBoolean() ? ", " + orderRow() : ""));
            case 2 -> write("order_items", "INSERT INTO order_items (cust_id, order_id, line, product_id, qty, price) VALUES ("
                    + k + ", " + (1 + r.nextInt(GeneratedSchema.ORDERS)) + ", " + (1 + r.nextInt(3)) + ", " + (1 + r.nextInt(24))
                    + ", 1, 9.50) ON DUPLICATE KEY UPDATE qty = qty + 1, price = VALUES(price)");
            case 3 -> write("customers", "INSERT INTO customers (id, name, region, balance, tier, score, created) VALUES ("
                    + k + ", 'upsert', 'ne', 1.00, 1, 0.5, '2024-05-05') ON DUPLICATE KEY UPDATE balance = balance + 1");
            case 4 -> write("products", "INSERT INTO products (id, name, category, price, weight) VALUES (" + (nextProductId++)
                    + ", 'new " + r.nextInt(99) + "', '" + pick(GeneratedSchema.CATEGORIES) + "', 12.25, 0.125)");
            case 5 -> write("products", "UPDATE products SET price = price + 1 WHERE category = '" + pick(GeneratedSchema.CATEGORIES) + "'");
            case 6 -> write("customers", "UPDATE customers SET balance = balance + 10 WHERE " + predicate(CUSTOMERS).replace("c.", ""));
            case 7 -> write("orders", "UPDATE orders SET status = '" + pick(GeneratedSchema.STATUSES) + "' WHERE "
                    + predicate(ORDERS).replace("o.", ""));
            case 8 -> write("orders", "UPDATE orders o SET o.total = (SELECT COALESCE(SUM(i.price), 0) FROM order_items i WHERE"
                    + " i.cust_id = o.cust_id AND i.order_id = o.id) WHERE o.cust_id IN (" + k + ", " + (k + 1) + ")");
            case 9 -> write("orders", "UPDATE orders SET qty = qty + 1 WHERE product_id IN (SELECT id FROM products WHERE category = '"
                    + pick(GeneratedSchema.CATEGORIES) + "')");
            case 10 -> write("order_items", "DELETE FROM order_items WHERE " + predicate(ITEMS).replace("i.", ""));
            case 11 -> write("orders", "DELETE FROM orders WHERE id = " + (1 + r.nextInt(nextOrderId)));
            case 12 -> write("ledger", "INSERT INTO ledger (acct, id, amount, kind) VALUES (" + (1 + r.nextInt(100)) + ", "
                    + (nextLedgerId++) + ", " + (r.nextInt(900) - 100) + ".50, 'fee'), (" + (1 + r.nextInt(100)) + ", "
                    + (nextLedgerId++) + ", 3.25, 'debit')");
            case 13 -> write("ledger", "UPDATE ledger SET amount = amount - 1 WHERE acct BETWEEN " + r.nextInt(60) + " AND "
                    + (40 + r.nextInt(60)));
            case 14 -> write("regions", "UPDATE regions SET tax = tax + 0.001 WHERE code = '" + pick(GeneratedSchema.REGIONS) + "'");
            default -> write("order_items", "INSERT INTO order_items (cust_id, order_id, line, product_id, qty, price) VALUES ("
                    + k + ", " + (1 + r.nextInt(GeneratedSchema.ORDERS)) + ", " + (nextLine++) + ", 3, 2, 4.75), ("
                    + (1 + r.nextInt(GeneratedSchema.CUSTOMERS)) + ", 7, " + (nextLine++) + ", 4, 1, 1.25)");
        };
    }

    private String customerRow() {
        return GeneratedSchema.row(nextCustomerId++, GeneratedSchema.q(pick(GeneratedSchema.WORDS)),
                GeneratedSchema.q(pick(GeneratedSchema.REGIONS)), GeneratedSchema.dec(r.nextInt(100_000), 2), 1 + r.nextInt(3),
                GeneratedSchema.eighths(r), "'2024-06-01'");
    }

    /** A new order without its id, which the proxy draws from the table's sequence. */
    private String orderRow() {
        nextOrderId++;
        return GeneratedSchema.row(1 + r.nextInt(GeneratedSchema.CUSTOMERS + 4), 1 + r.nextInt(24),
                GeneratedSchema.q(pick(GeneratedSchema.STATUSES)), GeneratedSchema.dec(r.nextInt(50_000), 2), 1 + r.nextInt(9));
    }

    // ---- helpers -----------------------------------------------------------------------------

    private static Generated write(String table, String sql) {
        return new Generated(Family.WRITE, Check.WRITE, sql, table);
    }

    private static Generated ordered(Family f, String sql) {
        return new Generated(f, Check.ORDERED, sql, null);
    }

    private static Generated unordered(Family f, String sql) {
        return new Generated(f, Check.UNORDERED, sql, null);
    }

    private Source pickSource(Source[] sources) {
        return sources[r.nextInt(sources.length)];
    }

    @SafeVarargs
    private <T> T pick(T... values) {
        return values[r.nextInt(values.length)];
    }
}
