package io.cleave.router.sql.parse;

import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Name;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Span;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.ast.TableRef;
import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;

/**
 * Table references: tables with partitions, aliases and index hints, derived tables, parenthesized
 * groups, and joins (comma, [INNER|CROSS] JOIN, STRAIGHT_JOIN, LEFT/RIGHT [OUTER], NATURAL), left-associative.
 */
final class TableRefParser {

    private final TokenCursor c;
    private final QueryParser queries;

    TableRefParser(TokenCursor c, QueryParser queries) {
        this.c = c;
        this.queries = queries;
    }

    /** Comma-separated table references. */
    List<TableRef> tableRefs() {
        List<TableRef> refs = new ArrayList<>();
        do {
            refs.add(tableRef());
        } while (c.accept(TokenType.COMMA));
        return refs;
    }

    /** A table factor followed by any joins. */
    TableRef tableRef() {
        int start = c.pos;
        TableRef left = tableFactor();
        while (true) {
            TableRef.JoinKind kind;
            if (c.is(Keyword.JOIN) || c.is(Keyword.INNER) || c.is(Keyword.CROSS)) {
                kind = c.is(Keyword.CROSS) ? TableRef.JoinKind.CROSS : TableRef.JoinKind.INNER;
                if (!c.is(Keyword.JOIN)) {
                    c.pos++;
                }
                c.expect(Keyword.JOIN);
            } else if (c.accept(Keyword.STRAIGHT_JOIN)) {
                kind = TableRef.JoinKind.STRAIGHT;
            } else if (c.is(Keyword.LEFT) || c.is(Keyword.RIGHT)) {
                kind = c.is(Keyword.LEFT) ? TableRef.JoinKind.LEFT : TableRef.JoinKind.RIGHT;
                c.pos++;
                c.accept(Keyword.OUTER);
                c.expect(Keyword.JOIN);
            } else if (c.accept(Keyword.NATURAL)) {
                kind = TableRef.JoinKind.NATURAL;
                if (c.accept(Keyword.LEFT)) {
                    kind = TableRef.JoinKind.NATURAL_LEFT;
                } else if (c.accept(Keyword.RIGHT)) {
                    kind = TableRef.JoinKind.NATURAL_RIGHT;
                }
                c.accept(Keyword.OUTER);
                c.accept(Keyword.INNER);
                c.expect(Keyword.JOIN);
            } else {
                return left;
            }
            TableRef right = tableFactor();
            Expr on = null;
            List<Name> using = List.of();
            if (c.accept(Keyword.ON)) {
                on = queries.exprs.expr();
            } else if (c.accept(Keyword.USING)) {
                using = queries.nameList();
            } else if (kind == TableRef.JoinKind.LEFT || kind == TableRef.JoinKind.RIGHT) {
                throw c.error("expected ON or USING");
            }
            left = new TableRef.Join(c.spanFrom(start), kind, left, right, on, using);
        }
    }

    private TableRef tableFactor() {
        c.enter();
        try {
            return tableFactorBody();
        } finally {
            c.leave();
        }
    }

    private TableRef tableFactorBody() {
        int start = c.pos;
        boolean lateral = c.accept(Keyword.LATERAL);
        if (c.is(TokenType.LPAREN)) {
            if (c.startsQuery(1)) {
                Query q = queries.exprs.parenthesizedQuery();
                String alias = queries.alias(true);
                List<Name> columns = c.is(TokenType.LPAREN) ? queries.nameList() : List.of();
                return new TableRef.Derived(c.spanFrom(start), q, alias, columns, lateral);
            }
            c.pos++;
            List<TableRef> refs = tableRefs();
            c.expect(TokenType.RPAREN);
            TableRef group = refs.get(0);
            for (int i = 1; i < refs.size(); i++) {
                group = new TableRef.Join(c.spanFrom(start), TableRef.JoinKind.COMMA, group, refs.get(i), null, List.of());
            }
            return group;
        }
        if (c.is(Keyword.DUAL)) {
            int d = c.pos++;
            return new TableRef.Table(c.spanFrom(start), new TableName(Span.of(d, d + 1), null, "DUAL"), null, List.of(),
                    List.of());
        }
        TableName name = c.tableName();
        List<Name> partitions = List.of();
        if (c.accept(Keyword.PARTITION)) {
            partitions = queries.nameList();
        }
        String alias = queries.alias(true);
        List<TableRef.IndexHint> hints = List.of();
        while (c.is(Keyword.USE) || c.is(Keyword.FORCE) || c.is(Keyword.IGNORE)) {
            if (!(c.isAt(1, Keyword.INDEX) || c.isAt(1, Keyword.KEY))) {
                break;
            }
            if (hints.isEmpty()) {
                hints = new ArrayList<>();
            }
            hints.add(indexHint());
        }
        return new TableRef.Table(c.spanFrom(start), name, alias, partitions, hints);
    }

    private TableRef.IndexHint indexHint() {
        int start = c.pos;
        String action = c.upperWord();
        c.pos++;
        if (c.accept(Keyword.FOR)) {
            if (c.accept(Keyword.JOIN)) {
                // FOR JOIN
            } else if (c.accept(Keyword.ORDER) || c.accept(Keyword.GROUP)) {
                c.expect(Keyword.BY);
            } else {
                throw c.error("expected JOIN, ORDER BY or GROUP BY");
            }
        }
        c.expect(TokenType.LPAREN);
        List<Name> names = new ArrayList<>();
        while (!c.is(TokenType.RPAREN)) {
            names.add(c.is(Keyword.PRIMARY) ? c.anyWord() : c.identifier());
            if (!c.accept(TokenType.COMMA)) {
                break;
            }
        }
        c.expect(TokenType.RPAREN);
        return new TableRef.IndexHint(c.spanFrom(start), action, names);
    }
}
