package io.cleave.router.sql.parse;

import io.cleave.router.sql.ast.Assignment;
import io.cleave.router.sql.ast.Delete;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Insert;
import io.cleave.router.sql.ast.Limit;
import io.cleave.router.sql.ast.Name;
import io.cleave.router.sql.ast.OrderItem;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.SelectItem;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.ast.TableRef;
import io.cleave.router.sql.ast.Update;
import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** INSERT, REPLACE, UPDATE and DELETE. */
final class DmlParser {

    private final TokenCursor c;
    private final QueryParser queries;
    private final ExprParser exprs;

    DmlParser(TokenCursor c, QueryParser queries) {
        this.c = c;
        this.queries = queries;
        this.exprs = queries.exprs;
    }

    Insert insert() {
        int start = c.pos;
        boolean replace = c.is(Keyword.REPLACE);
        c.pos++;
        List<String> hints = hints();
        List<String> modifiers = modifiers(Keyword.LOW_PRIORITY, Keyword.DELAYED, Keyword.HIGH_PRIORITY, Keyword.IGNORE);
        c.accept(Keyword.INTO);
        TableName table = c.tableName();
        List<Name> partitions = List.of();
        if (c.accept(Keyword.PARTITION)) {
            partitions = queries.nameList();
        }
        List<Name> columns = List.of();
        if (c.is(TokenType.LPAREN) && !c.startsQuery(1)) {
            columns = columnList();
        }
        Insert.Source source;
        int sourceStart = c.pos;
        if (c.is(Keyword.VALUES) || c.is(Keyword.VALUE)) {
            c.pos++;
            List<Insert.Row> rows = new ArrayList<>();
            do {
                rows.add(row());
            } while (c.accept(TokenType.COMMA));
            source = new Insert.Values(c.spanFrom(sourceStart), rows);
        } else if (c.is(Keyword.SET)) {
            c.pos++;
            source = new Insert.SetList(c.spanFrom(sourceStart), assignments());
        } else if (c.is(Keyword.SELECT) || c.is(Keyword.WITH) || c.is(TokenType.LPAREN)) {
            Query q = queries.queryExpression();
            source = new Insert.FromQuery(c.spanFrom(sourceStart), q);
        } else {
            throw c.error("expected VALUES, SET or SELECT");
        }
        Name rowAlias = null;
        List<Name> rowAliasColumns = List.of();
        if (c.accept(Keyword.AS)) {
            rowAlias = c.identifier();
            if (c.is(TokenType.LPAREN)) {
                rowAliasColumns = queries.nameList();
            }
        }
        List<Assignment> odku = List.of();
        if (c.is(Keyword.ON) && c.isAt(1, Keyword.DUPLICATE)) {
            c.pos += 2;
            c.expect(Keyword.KEY);
            c.expect(Keyword.UPDATE);
            odku = assignments();
        }
        List<SelectItem> returning = returning();
        return new Insert(c.spanFrom(start), replace, modifiers, hints, table, partitions, columns, source, rowAlias,
                rowAliasColumns, odku, returning);
    }

    /** {@code (a, b.c, ...)} or {@code ()}: column names, qualifiers dropped. */
    private List<Name> columnList() {
        c.expect(TokenType.LPAREN);
        List<Name> names = new ArrayList<>();
        if (c.accept(TokenType.RPAREN)) {
            return names;
        }
        do {
            int start = c.pos;
            Expr.ColumnRef ref = exprs.columnRef(start);
            names.add(new Name(c.spanFrom(start), ref.column()));
        } while (c.accept(TokenType.COMMA));
        c.expect(TokenType.RPAREN);
        return names;
    }

    private Insert.Row row() {
        int start = c.pos;
        if (c.is(Keyword.ROW)) {
            c.pos++;
        }
        c.expect(TokenType.LPAREN);
        List<Expr> values = List.of();
        if (!c.is(TokenType.RPAREN)) {
            values = exprs.exprList();
        }
        c.expect(TokenType.RPAREN);
        return new Insert.Row(c.spanFrom(start), values);
    }

    List<Assignment> assignments() {
        List<Assignment> list = new ArrayList<>();
        do {
            int start = c.pos;
            Expr.ColumnRef column = exprs.columnRef(start);
            if (!c.accept(TokenType.EQ) && !c.accept(TokenType.ASSIGN)) {
                throw c.error("expected =");
            }
            Expr value = exprs.expr();
            list.add(new Assignment(c.spanFrom(start), column, value));
        } while (c.accept(TokenType.COMMA));
        return list;
    }

    Update update() {
        int start = c.expect(Keyword.UPDATE);
        List<String> hints = hints();
        List<String> modifiers = modifiers(Keyword.LOW_PRIORITY, Keyword.IGNORE);
        List<TableRef> tables = queries.tableRefs();
        c.expect(Keyword.SET);
        List<Assignment> assignments = assignments();
        Expr where = c.accept(Keyword.WHERE) ? exprs.expr() : null;
        List<OrderItem> orderBy = orderBy();
        Limit limit = c.is(Keyword.LIMIT) ? queries.limit() : null;
        return new Update(c.spanFrom(start), modifiers, hints, tables, assignments, where,
                orderBy, limit);
    }

    Delete delete() {
        int start = c.expect(Keyword.DELETE);
        List<String> hints = hints();
        List<String> modifiers = modifiers(Keyword.LOW_PRIORITY, Keyword.QUICK, Keyword.IGNORE);
        List<TableName> targets = List.of();
        List<TableRef> from;
        if (c.accept(Keyword.FROM)) {
            int save = c.pos;
            List<TableName> names = targetList();
            if (c.accept(Keyword.USING)) {
                targets = names;
                from = queries.tableRefs();
            } else {
                c.pos = save;
                from = List.of(queries.tableRef());
                if (from.get(0) instanceof TableRef.Join) {
                    throw c.error("a single-table DELETE takes one table; use DELETE t FROM ... JOIN ...");
                }
            }
        } else {
            targets = targetList();
            c.expect(Keyword.FROM);
            from = queries.tableRefs();
        }
        Expr where = c.accept(Keyword.WHERE) ? exprs.expr() : null;
        List<OrderItem> orderBy = orderBy();
        Limit limit = c.is(Keyword.LIMIT) ? queries.limit() : null;
        List<SelectItem> returning = returning();
        return new Delete(c.spanFrom(start), modifiers, hints, targets, from, where, orderBy, limit, returning);
    }

    /** {@code t1[.*], db.t2[.*], ...}. */
    private List<TableName> targetList() {
        List<TableName> names = new ArrayList<>();
        do {
            names.add(c.tableName());
            if (c.is(TokenType.DOT) && c.type(1) == TokenType.STAR) {
                c.pos += 2;
            }
        } while (c.accept(TokenType.COMMA));
        return names;
    }

    private List<OrderItem> orderBy() {
        if (!c.is(Keyword.ORDER)) {
            return List.of();
        }
        c.pos++;
        c.expect(Keyword.BY);
        return queries.orderItems();
    }

    private List<SelectItem> returning() {
        if (!c.accept(Keyword.RETURNING)) {
            return List.of();
        }
        return queries.selectItems();
    }

    private List<String> hints() {
        List<String> hints = List.of();
        while (c.is(TokenType.HINT)) {
            if (hints.isEmpty()) {
                hints = new ArrayList<>();
            }
            hints.add(c.tokens.text(c.pos++));
        }
        return hints;
    }

    private List<String> modifiers(Keyword... allowed) {
        List<String> found = List.of();
        outer:
        while (c.type() == TokenType.KEYWORD) {
            for (Keyword k : allowed) {
                if (c.is(k)) {
                    if (found.isEmpty()) {
                        found = new ArrayList<>();
                    }
                    found.add(k.name().toUpperCase(Locale.ROOT));
                    c.pos++;
                    continue outer;
                }
            }
            break;
        }
        return found;
    }
}
