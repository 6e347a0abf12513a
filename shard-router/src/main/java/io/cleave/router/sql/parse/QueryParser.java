package io.cleave.router.sql.parse;

import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Limit;
import io.cleave.router.sql.ast.Name;
import io.cleave.router.sql.ast.OrderItem;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.sql.ast.SelectItem;
import io.cleave.router.sql.ast.Span;
import io.cleave.router.sql.ast.TableRef;
import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;

/** SELECT, set operations, WITH, table references and the ORDER BY / LIMIT clauses other statements share. */
final class QueryParser {

    private final TokenCursor c;
    final ExprParser exprs;
    private final TableRefParser tableRefs;

    QueryParser(TokenCursor c) {
        this.c = c;
        this.exprs = new ExprParser(c, this);
        this.tableRefs = new TableRefParser(c, this);
    }

    /** Comma-separated table references (FROM, UPDATE, DELETE ... USING). */
    List<TableRef> tableRefs() {
        return tableRefs.tableRefs();
    }

    /** One table reference with its joins. */
    TableRef tableRef() {
        return tableRefs.tableRef();
    }

    /** {@code [WITH ...] body [set operations] [ORDER BY] [LIMIT] [locking]}. */
    Query queryExpression() {
        c.enter();
        try {
            int start = c.pos;
            Query.With with = c.is(Keyword.WITH) ? with() : null;
            Query q = unionChain();
            List<OrderItem> orderBy = List.of();
            Limit limit = null;
            if (c.is(Keyword.ORDER)) {
                c.pos++;
                c.expect(Keyword.BY);
                orderBy = orderItems();
            }
            if (c.is(Keyword.LIMIT)) {
                limit = limit();
            }
            Span span = c.spanFrom(start);
            if (q instanceof Select s) {
                Select.Locking locking = s.locking();
                Select.Into into = s.into();
                if (locking == null && (c.is(Keyword.FOR) || c.is(Keyword.LOCK))) {
                    locking = locking();
                }
                if (into == null && c.is(Keyword.INTO)) {
                    into = into();
                }
                if (locking == null && (c.is(Keyword.FOR) || c.is(Keyword.LOCK))) {
                    locking = locking();
                }
                return new Select(c.spanFrom(start), with, s.options(), s.items(), into, s.from(), s.where(),
                        s.groupBy(), s.withRollup(), s.having(), orderBy, limit, locking);
            }
            if (q instanceof Query.SetOperation op) {
                return new Query.SetOperation(span, with, op.operator(), op.all(), op.left(), op.right(), orderBy, limit);
            }
            Query.Parenthesized p = (Query.Parenthesized) q;
            if (with == null && orderBy.isEmpty() && limit == null) {
                return p;
            }
            return new Query.Parenthesized(span, with, p.query(), orderBy, limit);
        } finally {
            c.leave();
        }
    }

    /** UNION and EXCEPT, left-associative, over INTERSECT terms (INTERSECT binds tighter). */
    private Query unionChain() {
        int start = c.pos;
        Query left = intersectChain();
        while (c.is(Keyword.UNION) || c.is(Keyword.EXCEPT)) {
            Query.SetOperator op = c.is(Keyword.UNION) ? Query.SetOperator.UNION : Query.SetOperator.EXCEPT;
            c.pos++;
            boolean all = setQuantifier();
            Query right = intersectChain();
            left = new Query.SetOperation(c.spanFrom(start), null, op, all, left, right, List.of(), null);
        }
        return left;
    }

    private Query intersectChain() {
        int start = c.pos;
        Query left = queryPrimary();
        while (c.is(Keyword.INTERSECT)) {
            c.pos++;
            boolean all = setQuantifier();
            Query right = queryPrimary();
            left = new Query.SetOperation(c.spanFrom(start), null, Query.SetOperator.INTERSECT, all, left, right,
                    List.of(), null);
        }
        return left;
    }

    private boolean setQuantifier() {
        if (c.accept(Keyword.ALL)) {
            return true;
        }
        c.accept(Keyword.DISTINCT);
        return false;
    }

    /** A SELECT block without trailing ORDER BY/LIMIT, or a parenthesized query expression. */
    private Query queryPrimary() {
        int start = c.pos;
        if (c.is(TokenType.LPAREN)) {
            c.pos++;
            Query inner = queryExpression();
            c.expect(TokenType.RPAREN);
            return new Query.Parenthesized(c.spanFrom(start), null, inner, List.of(), null);
        }
        if (!c.is(Keyword.SELECT)) {
            throw c.error("expected SELECT");
        }
        return selectBlock();
    }

    private Select selectBlock() {
        int start = c.expect(Keyword.SELECT);
        Select.SelectOptions options = selectOptions();
        List<SelectItem> items = selectItems();
        Select.Into into = c.is(Keyword.INTO) ? into() : null;
        List<TableRef> from = List.of();
        if (c.accept(Keyword.FROM)) {
            from = tableRefs();
        }
        Expr where = c.accept(Keyword.WHERE) ? exprs.expr() : null;
        List<OrderItem> groupBy = List.of();
        boolean rollup = false;
        if (c.is(Keyword.GROUP)) {
            c.pos++;
            c.expect(Keyword.BY);
            groupBy = orderItems();
            if (c.is(Keyword.WITH) && c.isWordAt(1, "ROLLUP")) {
                c.pos += 2;
                rollup = true;
            }
        }
        Expr having = c.accept(Keyword.HAVING) ? exprs.expr() : null;
        if (c.is(Keyword.WINDOW)) {
            skipWindowClause();
        }
        return new Select(c.spanFrom(start), null, options, items, into, from, where, groupBy, rollup, having,
                List.of(), null, null);
    }

    private Select.SelectOptions selectOptions() {
        boolean distinct = false;
        boolean calc = false;
        boolean straight = false;
        boolean high = false;
        boolean noCache = false;
        List<String> hints = new ArrayList<>();
        while (true) {
            if (c.is(TokenType.HINT)) {
                hints.add(c.tokens.text(c.pos++));
                continue;
            }
            Keyword k = c.kw();
            if (k == null) {
                break;
            }
            switch (k) {
                case ALL -> { }
                case DISTINCT, DISTINCTROW -> distinct = true;
                case SQL_CALC_FOUND_ROWS -> calc = true;
                case STRAIGHT_JOIN -> straight = true;
                case HIGH_PRIORITY -> high = true;
                case SQL_NO_CACHE -> noCache = true;
                case SQL_CACHE, SQL_SMALL_RESULT, SQL_BIG_RESULT, SQL_BUFFER_RESULT -> { }
                default -> {
                    return new Select.SelectOptions(distinct, calc, straight, high, noCache, List.copyOf(hints));
                }
            }
            c.pos++;
        }
        if (!distinct && !calc && !straight && !high && !noCache && hints.isEmpty()) {
            return Select.SelectOptions.NONE;
        }
        return new Select.SelectOptions(distinct, calc, straight, high, noCache, List.copyOf(hints));
    }

    List<SelectItem> selectItems() {
        List<SelectItem> items = new ArrayList<>();
        do {
            items.add(selectItem());
        } while (c.accept(TokenType.COMMA));
        return items;
    }

    private SelectItem selectItem() {
        int start = c.pos;
        if (c.accept(TokenType.STAR)) {
            return new SelectItem.Star(c.spanFrom(start), null, null);
        }
        if (isWordAt(0) && c.type(1) == TokenType.DOT && c.type(2) == TokenType.STAR) {
            String table = c.identifierText(c.pos);
            c.pos += 3;
            return new SelectItem.Star(c.spanFrom(start), null, table);
        }
        if (isWordAt(0) && c.type(1) == TokenType.DOT && isWordAt(2) && c.type(3) == TokenType.DOT
                && c.type(4) == TokenType.STAR) {
            String schema = c.identifierText(c.pos);
            String table = c.identifierText(c.pos + 2);
            c.pos += 5;
            return new SelectItem.Star(c.spanFrom(start), schema, table);
        }
        Expr expr = exprs.expr();
        String alias = alias(false);
        return new SelectItem.Column(c.spanFrom(start), expr, alias);
    }

    private boolean isWordAt(int ahead) {
        TokenType t = c.type(ahead);
        return t == TokenType.IDENTIFIER || t == TokenType.QUOTED_IDENTIFIER
                || (t == TokenType.KEYWORD && !c.kw(ahead).isReserved());
    }

    /** {@code [AS] alias}: an identifier or a string; null when none. Tables take no string aliases. */
    String alias(boolean table) {
        if (c.accept(Keyword.AS)) {
            if (!table && c.is(TokenType.STRING)) {
                return c.stringText(c.pos++);
            }
            return c.identifier().value();
        }
        if (!table && c.is(TokenType.STRING)) {
            return c.stringText(c.pos++);
        }
        if (c.isIdentifier() && !(table && c.is(Keyword.RETURNING))) {
            return c.identifier().value();
        }
        return null;
    }

    private Select.Into into() {
        int start = c.expect(Keyword.INTO);
        if (c.accept(Keyword.OUTFILE) || c.acceptWord("DUMPFILE")) {
            String target = c.tokens.text(c.pos - 1).toUpperCase(java.util.Locale.ROOT);
            if (!c.is(TokenType.STRING)) {
                throw c.error("expected a file name");
            }
            c.literal();
            // Export options (CHARACTER SET, FIELDS ..., LINES ...) are not analyzed.
            while (c.is(Keyword.CHARACTER) || c.is(Keyword.SET) || c.is(Keyword.CHARSET) || c.is(Keyword.FIELDS)
                    || c.is(Keyword.COLUMNS) || c.is(Keyword.LINES) || c.is(Keyword.TERMINATED) || c.is(Keyword.BY)
                    || c.isWord("OPTIONALLY") || c.isWord("ENCLOSED") || c.isWord("ESCAPED") || c.isWord("STARTING")
                    || c.is(TokenType.STRING) || (c.isIdentifier() && c.tokens.isKeyword(c.pos - 1, Keyword.SET))) {
                c.pos++;
            }
            return new Select.Into(c.spanFrom(start), target, List.of());
        }
        List<Expr> vars = new ArrayList<>();
        do {
            int v = c.pos;
            if (c.is(TokenType.USER_VARIABLE)) {
                c.pos++;
                vars.add(new Expr.UserVariable(c.spanFrom(v), exprs.userVariableName(v)));
            } else {
                vars.add(exprs.columnRef(v));
            }
        } while (c.accept(TokenType.COMMA));
        return new Select.Into(c.spanFrom(start), "VARIABLES", vars);
    }

    private void skipWindowClause() {
        c.expect(Keyword.WINDOW);
        do {
            c.identifier();
            c.expect(Keyword.AS);
            c.skipParens();
        } while (c.accept(TokenType.COMMA));
    }

    /** ORDER BY / GROUP BY items, after the BY. */
    List<OrderItem> orderItems() {
        List<OrderItem> items = new ArrayList<>();
        do {
            int start = c.pos;
            Expr e = exprs.expr();
            boolean desc = false;
            if (c.accept(Keyword.DESC)) {
                desc = true;
            } else {
                c.accept(Keyword.ASC);
            }
            int ordinal = 0;
            if (e instanceof Expr.Literal lit && lit.kind() == Expr.LiteralKind.INTEGER) {
                ordinal = parseOrdinal(lit.text());
            }
            items.add(new OrderItem(c.spanFrom(start), e, desc, ordinal));
        } while (c.accept(TokenType.COMMA));
        return items;
    }

    private static int parseOrdinal(String text) {
        try {
            return Integer.parseInt(text);
        } catch (NumberFormatException e) {
            return Integer.MAX_VALUE;
        }
    }

    /** {@code LIMIT count | LIMIT offset, count | LIMIT count OFFSET offset}. */
    Limit limit() {
        int start = c.expect(Keyword.LIMIT);
        Expr first = limitValue();
        if (c.accept(TokenType.COMMA)) {
            Expr count = limitValue();
            return new Limit(c.spanFrom(start), count, first);
        }
        if (c.accept(Keyword.OFFSET)) {
            Expr offset = limitValue();
            return new Limit(c.spanFrom(start), first, offset);
        }
        return new Limit(c.spanFrom(start), first, null);
    }

    private Expr limitValue() {
        TokenType t = c.type();
        if (t == TokenType.INTEGER || t == TokenType.PLACEHOLDER || t == TokenType.USER_VARIABLE || c.isIdentifier()) {
            return exprs.primary();
        }
        throw c.error("expected a number, ? or variable in LIMIT");
    }

    private Select.Locking locking() {
        int start = c.pos;
        Select.LockStrength strength;
        if (c.accept(Keyword.LOCK)) {
            c.expect(Keyword.IN);
            c.expect(Keyword.SHARE);
            c.expect(Keyword.MODE);
            return new Select.Locking(c.spanFrom(start), Select.LockStrength.SHARE, List.of(), Select.LockWait.WAIT);
        }
        c.expect(Keyword.FOR);
        if (c.accept(Keyword.UPDATE)) {
            strength = Select.LockStrength.UPDATE;
        } else if (c.accept(Keyword.SHARE)) {
            strength = Select.LockStrength.SHARE;
        } else {
            throw c.error("expected UPDATE or SHARE");
        }
        List<Name> of = new ArrayList<>();
        if (c.accept(Keyword.OF)) {
            do {
                of.add(c.identifier());
            } while (c.accept(TokenType.COMMA));
        }
        Select.LockWait wait = Select.LockWait.WAIT;
        if (c.accept(Keyword.NOWAIT)) {
            wait = Select.LockWait.NOWAIT;
        } else if (c.is(Keyword.SKIP) && c.isAt(1, Keyword.LOCKED)) {
            c.pos += 2;
            wait = Select.LockWait.SKIP_LOCKED;
        } else if (c.isWord("WAIT") && c.type(1) == TokenType.INTEGER) {
            // MariaDB: FOR UPDATE WAIT n.
            c.pos += 2;
        }
        return new Select.Locking(c.spanFrom(start), strength, List.copyOf(of), wait);
    }

    private Query.With with() {
        int start = c.expect(Keyword.WITH);
        boolean recursive = c.accept(Keyword.RECURSIVE);
        List<Query.Cte> ctes = new ArrayList<>();
        do {
            int cteStart = c.pos;
            Name name = c.identifier();
            List<Name> columns = List.of();
            if (c.is(TokenType.LPAREN)) {
                columns = nameList();
            }
            c.expect(Keyword.AS);
            Query q = exprs.parenthesizedQuery();
            ctes.add(new Query.Cte(c.spanFrom(cteStart), name, columns, q));
        } while (c.accept(TokenType.COMMA));
        return new Query.With(c.spanFrom(start), recursive, ctes);
    }

    /** {@code (a, b, c)}. */
    List<Name> nameList() {
        c.expect(TokenType.LPAREN);
        List<Name> names = new ArrayList<>();
        do {
            names.add(c.identifier());
        } while (c.accept(TokenType.COMMA));
        c.expect(TokenType.RPAREN);
        return names;
    }

}
