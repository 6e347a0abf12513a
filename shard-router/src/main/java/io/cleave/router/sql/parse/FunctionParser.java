package io.cleave.router.sql.parse;

import io.cleave.router.sql.ast.DataType;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Expr.LiteralKind;
import io.cleave.router.sql.ast.OrderItem;
import io.cleave.router.sql.ast.Span;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Function calls: the generic form ({@code name([DISTINCT] args [ORDER BY ..] [SEPARATOR ..]) [OVER ..]})
 * and MySQL's special syntaxes (CAST, CONVERT, EXTRACT, TRIM, POSITION, SUBSTRING ... FROM ... FOR,
 * CHAR ... USING, GET_FORMAT, MATCH ... AGAINST, NEXTVAL), plus data types.
 */
final class FunctionParser {

    private final TokenCursor c;
    private final ExprParser exprs;
    private final QueryParser queries;

    FunctionParser(TokenCursor c, ExprParser exprs, QueryParser queries) {
        this.c = c;
        this.exprs = exprs;
        this.queries = queries;
    }

    /** After the name; the cursor is at '('. */
    Expr call(int start, String schema, String name) {
        String upper = name.toUpperCase(Locale.ROOT);
        if (schema == null) {
            switch (upper) {
                case "CAST":
                    return cast(start);
                case "EXTRACT":
                    return extract(start);
                case "TRIM":
                    return trim(start);
                case "POSITION":
                    return position(start, name);
                case "SUBSTRING", "SUBSTR", "MID":
                    return substring(start, name);
                case "GET_FORMAT":
                    return getFormat(start, name);
                case "NEXTVAL": {
                    c.expect(TokenType.LPAREN);
                    TableName seq = c.tableName();
                    c.expect(TokenType.RPAREN);
                    return new Expr.NextValue(c.spanFrom(start), seq);
                }
                default:
                    break;
            }
        }
        c.expect(TokenType.LPAREN);
        boolean distinct = false;
        boolean star = false;
        List<Expr> args = List.of();
        List<OrderItem> orderBy = List.of();
        Expr separator = null;
        if (c.accept(Keyword.DISTINCT) || c.accept(Keyword.DISTINCTROW)) {
            distinct = true;
        } else {
            c.accept(Keyword.ALL);
        }
        if (c.is(TokenType.STAR) && c.type(1) == TokenType.RPAREN) {
            c.pos++;
            star = true;
        } else if (!c.is(TokenType.RPAREN)) {
            args = exprs.exprList();
        }
        if (c.is(Keyword.ORDER)) {
            c.pos++;
            c.expect(Keyword.BY);
            orderBy = queries.orderItems();
        }
        if (c.accept(Keyword.SEPARATOR)) {
            separator = exprs.expr();
        }
        c.expect(TokenType.RPAREN);
        Expr.WindowSpec over = c.is(Keyword.OVER) ? window() : null;
        return new Expr.FunctionCall(c.spanFrom(start), schema, name, args, distinct, star, orderBy, separator, over,
                true);
    }

    private Expr.WindowSpec window() {
        int start = c.pos;
        c.expect(Keyword.OVER);
        if (c.isIdentifier()) {
            String name = c.identifier().value();
            return new Expr.WindowSpec(c.spanFrom(start), name, List.of(), List.of());
        }
        c.expect(TokenType.LPAREN);
        String name = c.isIdentifier() ? c.identifier().value() : null;
        List<Expr> partitionBy = List.of();
        List<OrderItem> orderBy = List.of();
        if (c.accept(Keyword.PARTITION)) {
            c.expect(Keyword.BY);
            partitionBy = exprs.exprList();
        }
        if (c.accept(Keyword.ORDER)) {
            c.expect(Keyword.BY);
            orderBy = queries.orderItems();
        }
        // The frame (ROWS/RANGE ...) is not analyzed.
        int level = 1;
        while (level > 0) {
            TokenType t = c.type();
            if (t == TokenType.EOF || t == TokenType.ERROR) {
                throw c.error("unterminated window specification");
            }
            if (t == TokenType.LPAREN) {
                level++;
            } else if (t == TokenType.RPAREN) {
                level--;
            }
            c.pos++;
        }
        return new Expr.WindowSpec(c.spanFrom(start), name, partitionBy, orderBy);
    }

    private Expr cast(int start) {
        c.expect(TokenType.LPAREN);
        Expr operand = exprs.expr();
        c.expect(Keyword.AS);
        DataType type = dataType();
        c.expect(TokenType.RPAREN);
        return new Expr.Cast(c.spanFrom(start), operand, type, null);
    }

    Expr convert(int start) {
        c.pos++;
        c.expect(TokenType.LPAREN);
        Expr operand = exprs.expr();
        if (c.accept(Keyword.USING)) {
            String charset = c.anyWord().value().toLowerCase(Locale.ROOT);
            c.expect(TokenType.RPAREN);
            return new Expr.Cast(c.spanFrom(start), operand, null, charset);
        }
        c.expect(TokenType.COMMA);
        DataType type = dataType();
        c.expect(TokenType.RPAREN);
        return new Expr.Cast(c.spanFrom(start), operand, type, null);
    }

    private Expr extract(int start) {
        c.expect(TokenType.LPAREN);
        String unit = exprs.intervalUnit();
        c.expect(Keyword.FROM);
        Expr operand = exprs.expr();
        c.expect(TokenType.RPAREN);
        return new Expr.Extract(c.spanFrom(start), unit, operand);
    }

    private Expr trim(int start) {
        c.expect(TokenType.LPAREN);
        String side = null;
        if (c.is(Keyword.BOTH) || c.is(Keyword.LEADING) || c.is(Keyword.TRAILING)) {
            side = c.upperWord();
        }
        Expr remove = null;
        Expr operand;
        if (side != null && c.accept(Keyword.FROM)) {
            operand = exprs.expr();
        } else {
            Expr first = exprs.expr();
            if (c.accept(Keyword.FROM)) {
                remove = first;
                operand = exprs.expr();
            } else if (side != null) {
                throw c.error("expected FROM");
            } else {
                operand = first;
            }
        }
        c.expect(TokenType.RPAREN);
        return new Expr.Trim(c.spanFrom(start), side, remove, operand);
    }

    private Expr position(int start, String name) {
        c.expect(TokenType.LPAREN);
        Expr needle = exprs.expr(ExprParser.P_BIT_OR);
        c.expect(Keyword.IN);
        Expr haystack = exprs.expr();
        c.expect(TokenType.RPAREN);
        return new Expr.FunctionCall(c.spanFrom(start), null, name, List.of(needle, haystack), false, false,
                List.of(), null, null, true);
    }

    private Expr substring(int start, String name) {
        c.expect(TokenType.LPAREN);
        List<Expr> args = new ArrayList<>();
        args.add(exprs.expr());
        if (c.accept(Keyword.FROM)) {
            args.add(exprs.expr());
            if (c.accept(Keyword.FOR)) {
                args.add(exprs.expr());
            }
        } else {
            while (c.accept(TokenType.COMMA)) {
                args.add(exprs.expr());
            }
        }
        c.expect(TokenType.RPAREN);
        return new Expr.FunctionCall(c.spanFrom(start), null, name, args, false, false, List.of(), null, null, true);
    }

    private Expr getFormat(int start, String name) {
        c.expect(TokenType.LPAREN);
        int w = c.pos;
        String type = c.upperWord();
        Expr kind = new Expr.Literal(Span.of(w, w + 1), LiteralKind.WORD, type);
        c.expect(TokenType.COMMA);
        Expr format = exprs.expr();
        c.expect(TokenType.RPAREN);
        return new Expr.FunctionCall(c.spanFrom(start), null, name, List.of(kind, format), false, false, List.of(),
                null, null, true);
    }

    Expr charFunction(int start) {
        c.pos++;
        c.expect(TokenType.LPAREN);
        List<Expr> args = exprs.exprList();
        if (c.accept(Keyword.USING)) {
            String charset = c.anyWord().value().toLowerCase(Locale.ROOT);
            c.expect(TokenType.RPAREN);
            Expr.FunctionCall call = new Expr.FunctionCall(c.spanFrom(start), null, "CHAR", args, false, false,
                    List.of(), null, null, true);
            return new Expr.Cast(c.spanFrom(start), call, null, charset);
        }
        c.expect(TokenType.RPAREN);
        return new Expr.FunctionCall(c.spanFrom(start), null, "CHAR", args, false, false, List.of(), null, null, true);
    }

    Expr match(int start) {
        c.pos++;
        c.expect(TokenType.LPAREN);
        List<Expr> columns = new ArrayList<>();
        do {
            columns.add(exprs.columnRef(c.pos));
        } while (c.accept(TokenType.COMMA));
        c.expect(TokenType.RPAREN);
        c.expect(Keyword.AGAINST);
        c.expect(TokenType.LPAREN);
        Expr against = exprs.expr(ExprParser.P_BIT_OR);
        StringBuilder modifier = new StringBuilder();
        while (!c.is(TokenType.RPAREN)) {
            if (c.type() == TokenType.EOF || !c.isAnyWord()) {
                throw c.error("expected a search modifier");
            }
            if (modifier.length() > 0) {
                modifier.append(' ');
            }
            modifier.append(c.upperWord());
        }
        c.expect(TokenType.RPAREN);
        return new Expr.Match(c.spanFrom(start), columns, against, modifier.length() == 0 ? null : modifier.toString());
    }

    /**
     * A data type: a name (two words for SIGNED INTEGER, DOUBLE PRECISION, ...), optional
     * {@code (n[, m])} or enum values, then modifiers (UNSIGNED, ZEROFILL, CHARACTER SET x, COLLATE x, ARRAY).
     */
    DataType dataType() {
        int start = c.pos;
        String name = c.upperWord();
        if ((name.equals("SIGNED") || name.equals("UNSIGNED")) && (c.isWord("INT") || c.isWord("INTEGER"))) {
            c.pos++;
        } else if (name.equals("DOUBLE") && c.isWord("PRECISION")) {
            c.pos++;
        } else if ((name.equals("NATIONAL") || name.equals("LONG")) && c.isAnyWord()) {
            name = name + " " + c.upperWord();
        } else if (name.equals("CHARACTER") && c.isWord("VARYING")) {
            c.pos++;
            name = "VARCHAR";
        }
        if (c.is(TokenType.LPAREN)) {
            c.skipParens();
        }
        while (true) {
            if (c.acceptWord("UNSIGNED") || c.acceptWord("SIGNED") || c.acceptWord("ZEROFILL")
                    || c.acceptWord("ARRAY") || c.accept(Keyword.BINARY) || c.acceptWord("ASCII")
                    || c.acceptWord("UNICODE")) {
                continue;
            }
            if (c.is(Keyword.CHARACTER) && c.isAt(1, Keyword.SET)) {
                c.pos += 2;
                c.anyWord();
                continue;
            }
            if (c.is(Keyword.CHARSET) || c.is(Keyword.COLLATE)) {
                c.pos++;
                if (c.type() == TokenType.STRING) {
                    c.pos++;
                } else {
                    c.anyWord();
                }
                continue;
            }
            break;
        }
        return new DataType(c.spanFrom(start), name);
    }
}
