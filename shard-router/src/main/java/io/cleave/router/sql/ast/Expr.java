package io.cleave.router.sql.ast;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * An expression. Literal values that the digest parameterized are {@link Slot}s: the planner
 * reads their values through the digest's slot list, so one plan serves every statement with the
 * same digest. {@link #children()} lists direct sub-expressions (not those inside subqueries;
 * see {@link #subqueries()}).
 */
public sealed interface Expr extends Node {

    /** Direct sub-expressions, in source order. */
    List<Expr> children();

    /** Queries nested directly in this node (IN/EXISTS/scalar subqueries). */
    default List<Query> subqueries() {
        return List.of();
    }

    /** {@code [[schema.]table.]column}; qualifiers are null when not written. */
    record ColumnRef(Span span, String schema, String table, String column) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of();
        }

        public boolean matches(String name) {
            return column.equalsIgnoreCase(name);
        }
    }

    /** A parameterized value: slot {@code slot} of the statement's digest (a literal or a client {@code ?}). */
    record Slot(Span span, int slot) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of();
        }
    }

    /**
     * A constant that is part of the digest key, so the same for every statement sharing a plan:
     * NULL, TRUE, FALSE, DEFAULT, an ORDER/GROUP BY position, an alias string, or a bare word used
     * as a value ({@code SET sql_mode = ANSI}, interval units, collation names).
     */
    record Literal(Span span, LiteralKind kind, String text) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of();
        }
    }

    /** {@code @name}; name without the {@code @} and unquoted. */
    record UserVariable(Span span, String name) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of();
        }
    }

    /** {@code @@[scope.]name}; name in lower case. */
    record SystemVariable(Span span, VariableScope scope, String name) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of();
        }
    }

    record Unary(Span span, UnaryOp op, Expr operand) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of(operand);
        }
    }

    record Binary(Span span, BinaryOp op, Expr left, Expr right) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of(left, right);
        }
    }

    /** {@code operand IS [NOT] NULL | TRUE | FALSE | UNKNOWN}. */
    record IsTest(Span span, Expr operand, IsValue value, boolean negated) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of(operand);
        }
    }

    /** {@code operand [NOT] LIKE pattern [ESCAPE escape]}; escape may be null. */
    record Like(Span span, Expr operand, Expr pattern, Expr escape, boolean negated) implements Expr {
        @Override
        public List<Expr> children() {
            return escape == null ? List.of(operand, pattern) : List.of(operand, pattern, escape);
        }
    }

    record Between(Span span, Expr operand, Expr low, Expr high, boolean negated) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of(operand, low, high);
        }
    }

    /** {@code operand [NOT] IN (v1, v2, ...)}; operand and values may be {@link Row}s. */
    record InList(Span span, Expr operand, List<Expr> values, boolean negated) implements Expr {
        @Override
        public List<Expr> children() {
            List<Expr> all = new ArrayList<>(values.size() + 1);
            all.add(operand);
            all.addAll(values);
            return all;
        }
    }

    record InSubquery(Span span, Expr operand, Query query, boolean negated) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of(operand);
        }

        @Override
        public List<Query> subqueries() {
            return List.of(query);
        }
    }

    record Exists(Span span, Query query) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public List<Query> subqueries() {
            return List.of(query);
        }
    }

    /** A scalar (or row) subquery used as a value. */
    record Subquery(Span span, Query query) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of();
        }

        @Override
        public List<Query> subqueries() {
            return List.of(query);
        }
    }

    /** {@code left op ANY|SOME|ALL (subquery)}. */
    record Quantified(Span span, BinaryOp op, Quantifier quantifier, Expr left, Query query) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of(left);
        }

        @Override
        public List<Query> subqueries() {
            return List.of(query);
        }
    }

    /** {@code (a, b)} or {@code ROW(a, b)}. */
    record Row(Span span, List<Expr> items) implements Expr {
        @Override
        public List<Expr> children() {
            return items;
        }
    }

    /** {@code CASE [operand] WHEN .. THEN .. [ELSE ..] END}; operand and otherwise may be null. */
    record Case(Span span, Expr operand, List<When> whens, Expr otherwise) implements Expr {
        @Override
        public List<Expr> children() {
            List<Expr> all = new ArrayList<>();
            if (operand != null) {
                all.add(operand);
            }
            for (When w : whens) {
                all.add(w.condition());
                all.add(w.result());
            }
            if (otherwise != null) {
                all.add(otherwise);
            }
            return all;
        }
    }

    record When(Span span, Expr condition, Expr result) implements Node {
    }

    /**
     * A function call. {@code name} is as written; {@link #upperName()} for comparisons. {@code star}
     * for {@code COUNT(*)}. {@code orderBy} and {@code separator} only for GROUP_CONCAT (empty/null
     * otherwise). {@code over} is the window of a window function, or null. {@code parens} is false
     * for the paren-less forms ({@code CURRENT_TIMESTAMP}).
     */
    record FunctionCall(Span span, String schema, String name, List<Expr> args, boolean distinct, boolean star,
                        List<OrderItem> orderBy, Expr separator, WindowSpec over, boolean parens) implements Expr {

        private static final Set<String> AGGREGATES = Set.of("COUNT", "SUM", "MIN", "MAX", "AVG", "GROUP_CONCAT",
                "BIT_AND", "BIT_OR", "BIT_XOR", "STD", "STDDEV", "STDDEV_POP", "STDDEV_SAMP", "VARIANCE",
                "VAR_POP", "VAR_SAMP", "JSON_ARRAYAGG", "JSON_OBJECTAGG", "ANY_VALUE");

        public String upperName() {
            return name.toUpperCase(Locale.ROOT);
        }

        /** A group aggregate: an aggregate name without OVER. */
        public boolean isAggregate() {
            return over == null && schema == null && AGGREGATES.contains(upperName());
        }

        /** A window function call ({@code ... OVER (...)} or {@code OVER w}). */
        public boolean isWindow() {
            return over != null;
        }

        @Override
        public List<Expr> children() {
            if (orderBy.isEmpty() && separator == null) {
                return args;
            }
            List<Expr> all = new ArrayList<>(args);
            for (OrderItem o : orderBy) {
                all.add(o.expr());
            }
            if (separator != null) {
                all.add(separator);
            }
            return all;
        }
    }

    /** {@code OVER name} or {@code OVER (...)}; the frame is not analyzed (see the span). */
    record WindowSpec(Span span, String name, List<Expr> partitionBy, List<OrderItem> orderBy) implements Node {
    }

    /**
     * {@code CAST(x AS type)}, {@code CONVERT(x, type)}, {@code CONVERT(x USING charset)}; exactly
     * one of type and charset is set.
     */
    record Cast(Span span, Expr operand, DataType type, String charset) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of(operand);
        }
    }

    /** {@code INTERVAL value unit} (in date arithmetic and DATE_ADD); unit in upper case. */
    record Interval(Span span, Expr value, String unit) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of(value);
        }
    }

    /** {@code EXTRACT(unit FROM operand)}. */
    record Extract(Span span, String unit, Expr operand) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of(operand);
        }
    }

    /** {@code TRIM([BOTH|LEADING|TRAILING] [remove] FROM operand)}; side is null or the keyword, remove may be null. */
    record Trim(Span span, String side, Expr remove, Expr operand) implements Expr {
        @Override
        public List<Expr> children() {
            return remove == null ? List.of(operand) : List.of(remove, operand);
        }
    }

    /** {@code MATCH (cols) AGAINST (against [modifier])}; modifier is the words written, or null. */
    record Match(Span span, List<Expr> columns, Expr against, String modifier) implements Expr {
        @Override
        public List<Expr> children() {
            List<Expr> all = new ArrayList<>(columns);
            all.add(against);
            return all;
        }
    }

    /** {@code DATE 'x'}, {@code TIME 'x'}, {@code TIMESTAMP 'x'}: type in upper case, the string a slot. */
    record TemporalLiteral(Span span, String type, Expr value) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of(value);
        }
    }

    /** {@code NEXT VALUE FOR seq}, {@code NEXTVAL(seq)} (MariaDB sequences). */
    record NextValue(Span span, TableName sequence) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of();
        }
    }

    /** {@code PREVIOUS VALUE FOR seq} (MariaDB): the session's last value of the sequence, as {@code LASTVAL(seq)}. */
    record PreviousValue(Span span, TableName sequence) implements Expr {
        @Override
        public List<Expr> children() {
            return List.of();
        }
    }

    enum LiteralKind { NULL, TRUE, FALSE, DEFAULT, INTEGER, DECIMAL, FLOAT, STRING, HEX, BIT, WORD }

    enum IsValue { NULL, TRUE, FALSE, UNKNOWN }

    enum Quantifier { ANY, SOME, ALL }

    enum UnaryOp {
        MINUS("-"), PLUS("+"), NOT("not"), BIT_NOT("~"), BINARY("binary");

        private final String symbol;

        UnaryOp(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }
    }

    enum BinaryOp {
        ASSIGN(":="), OR("or"), XOR("xor"), AND("and"),
        EQ("="), NULL_SAFE_EQ("<=>"), NE("<>"), LT("<"), LE("<="), GT(">"), GE(">="),
        REGEXP("regexp"), SOUNDS_LIKE("sounds-like"), MEMBER_OF("member-of"),
        BIT_OR("|"), BIT_AND("&"), SHIFT_LEFT("<<"), SHIFT_RIGHT(">>"),
        PLUS("+"), MINUS("-"), MULTIPLY("*"), DIVIDE("/"), INT_DIVIDE("div"), MOD("mod"), BIT_XOR("^"),
        COLLATE("collate"), JSON_EXTRACT("->"), JSON_UNQUOTE_EXTRACT("->>");

        private final String symbol;

        BinaryOp(String symbol) {
            this.symbol = symbol;
        }

        public String symbol() {
            return symbol;
        }

        public boolean isComparison() {
            return ordinal() >= EQ.ordinal() && ordinal() <= GE.ordinal();
        }
    }
}
