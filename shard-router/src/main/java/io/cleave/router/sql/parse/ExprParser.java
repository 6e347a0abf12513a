package io.cleave.router.sql.parse;

import io.cleave.router.sql.ast.DataType;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Expr.BinaryOp;
import io.cleave.router.sql.ast.Expr.LiteralKind;
import io.cleave.router.sql.ast.Expr.UnaryOp;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Span;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.ast.VariableScope;
import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.TokenType;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Expressions by precedence climbing, with MySQL's operator precedence (lowest first):
 * {@code :=}; OR, ||; XOR; AND, &&; NOT; comparisons, IS, LIKE, IN, BETWEEN, REGEXP, SOUNDS LIKE,
 * MEMBER OF; |; &; << >>; + -; * / DIV MOD %; ^; unary - ~; !; COLLATE; -> ->>.
 * ({@code ||} is OR: PIPES_AS_CONCAT is not supported.)
 */
final class ExprParser {

    static final int P_ASSIGN = 1;
    static final int P_OR = 2;
    static final int P_XOR = 3;
    static final int P_AND = 4;
    static final int P_NOT = 5;
    static final int P_COMPARE = 7;
    static final int P_BIT_OR = 8;
    static final int P_BIT_AND = 9;
    static final int P_SHIFT = 10;
    static final int P_ADD = 11;
    static final int P_MUL = 12;
    static final int P_BIT_XOR = 13;
    static final int P_UNARY = 14;
    static final int P_BANG = 15;
    static final int P_COLLATE = 16;
    static final int P_JSON = 17;

    private static final Set<String> INTERVAL_UNITS = Set.of("MICROSECOND", "SECOND", "MINUTE", "HOUR", "DAY", "WEEK",
            "MONTH", "QUARTER", "YEAR", "SECOND_MICROSECOND", "MINUTE_MICROSECOND", "MINUTE_SECOND",
            "HOUR_MICROSECOND", "HOUR_SECOND", "HOUR_MINUTE", "DAY_MICROSECOND", "DAY_SECOND", "DAY_MINUTE",
            "DAY_HOUR", "YEAR_MONTH");

    private final TokenCursor c;
    private final QueryParser queries;
    private final FunctionParser functions;

    ExprParser(TokenCursor c, QueryParser queries) {
        this.c = c;
        this.queries = queries;
        this.functions = new FunctionParser(c, this, queries);
    }

    /** A data type (CAST, CONVERT, column definitions). */
    DataType dataType() {
        return functions.dataType();
    }

    Expr expr() {
        return expr(P_ASSIGN);
    }

    /** An expression whose operators all bind at least as tightly as {@code minPrec}. */
    Expr expr(int minPrec) {
        c.enter();
        try {
            int start = c.pos;
            Expr left = prefix();
            while (true) {
                int prec = infixPrecedence();
                if (prec < 0 || prec < minPrec) {
                    return left;
                }
                left = infix(start, left, prec);
            }
        } finally {
            c.leave();
        }
    }

    List<Expr> exprList() {
        List<Expr> list = new ArrayList<>();
        do {
            list.add(expr());
        } while (c.accept(TokenType.COMMA));
        return list;
    }

    private int infixPrecedence() {
        TokenType t = c.type();
        switch (t) {
            case ASSIGN:
                return P_ASSIGN;
            case PIPE_PIPE:
                return P_OR;
            case AMP_AMP:
                return P_AND;
            case EQ, NULL_SAFE_EQ, NE, LT, LE, GT, GE:
                return P_COMPARE;
            case PIPE:
                return P_BIT_OR;
            case AMP:
                return P_BIT_AND;
            case SHIFT_LEFT, SHIFT_RIGHT:
                return P_SHIFT;
            case PLUS, MINUS:
                return P_ADD;
            case STAR, SLASH, PERCENT:
                return P_MUL;
            case CARET:
                return P_BIT_XOR;
            case ARROW, DOUBLE_ARROW:
                return P_JSON;
            case KEYWORD:
                break;
            default:
                return -1;
        }
        Keyword k = c.kw();
        switch (k) {
            case OR:
                return P_OR;
            case XOR:
                return P_XOR;
            case AND:
                return P_AND;
            case IS, LIKE, REGEXP, RLIKE, IN, BETWEEN:
                return P_COMPARE;
            case SOUNDS:
                return c.isAt(1, Keyword.LIKE) ? P_COMPARE : -1;
            case MEMBER:
                return P_COMPARE;
            case NOT: {
                Keyword n = c.kw(1);
                return n == Keyword.IN || n == Keyword.LIKE || n == Keyword.BETWEEN || n == Keyword.REGEXP
                        || n == Keyword.RLIKE ? P_COMPARE : -1;
            }
            case DIV, MOD:
                return P_MUL;
            case COLLATE:
                return P_COLLATE;
            default:
                return -1;
        }
    }

    private Expr infix(int start, Expr left, int prec) {
        TokenType t = c.type();
        if (t == TokenType.KEYWORD) {
            return keywordInfix(start, left, prec);
        }
        c.pos++;
        BinaryOp op = switch (t) {
            case ASSIGN -> BinaryOp.ASSIGN;
            case PIPE_PIPE -> BinaryOp.OR;
            case AMP_AMP -> BinaryOp.AND;
            case EQ -> BinaryOp.EQ;
            case NULL_SAFE_EQ -> BinaryOp.NULL_SAFE_EQ;
            case NE -> BinaryOp.NE;
            case LT -> BinaryOp.LT;
            case LE -> BinaryOp.LE;
            case GT -> BinaryOp.GT;
            case GE -> BinaryOp.GE;
            case PIPE -> BinaryOp.BIT_OR;
            case AMP -> BinaryOp.BIT_AND;
            case SHIFT_LEFT -> BinaryOp.SHIFT_LEFT;
            case SHIFT_RIGHT -> BinaryOp.SHIFT_RIGHT;
            case PLUS -> BinaryOp.PLUS;
            case MINUS -> BinaryOp.MINUS;
            case STAR -> BinaryOp.MULTIPLY;
            case SLASH -> BinaryOp.DIVIDE;
            case PERCENT -> BinaryOp.MOD;
            case CARET -> BinaryOp.BIT_XOR;
            case ARROW -> BinaryOp.JSON_EXTRACT;
            case DOUBLE_ARROW -> BinaryOp.JSON_UNQUOTE_EXTRACT;
            default -> throw c.error("unexpected operator");
        };
        if (op.isComparison() && isQuantifier() && c.type(1) == TokenType.LPAREN && c.startsQuery(2)) {
            Expr.Quantifier q = Expr.Quantifier.valueOf(c.upperWord());
            Query query = parenthesizedQuery();
            return new Expr.Quantified(c.spanFrom(start), op, q, left, query);
        }
        Expr right = op == BinaryOp.JSON_EXTRACT || op == BinaryOp.JSON_UNQUOTE_EXTRACT
                ? primary()
                : expr(op == BinaryOp.ASSIGN ? prec : prec + 1);
        return new Expr.Binary(c.spanFrom(start), op, left, right);
    }

    private boolean isQuantifier() {
        Keyword k = c.kw();
        return k == Keyword.ANY || k == Keyword.SOME || k == Keyword.ALL;
    }

    private Expr keywordInfix(int start, Expr left, int prec) {
        Keyword k = c.kw();
        c.pos++;
        switch (k) {
            case OR:
                return binary(start, BinaryOp.OR, left, expr(prec + 1));
            case XOR:
                return binary(start, BinaryOp.XOR, left, expr(prec + 1));
            case AND:
                return binary(start, BinaryOp.AND, left, expr(prec + 1));
            case DIV:
                return binary(start, BinaryOp.INT_DIVIDE, left, expr(prec + 1));
            case MOD:
                return binary(start, BinaryOp.MOD, left, expr(prec + 1));
            case COLLATE: {
                int w = c.pos;
                Expr collation = c.type() == TokenType.STRING
                        ? c.literal()
                        : new Expr.Literal(Span.of(w, w + 1), LiteralKind.WORD, c.anyWord().value());
                return binary(start, BinaryOp.COLLATE, left, collation);
            }
            case IS: {
                boolean not = c.accept(Keyword.NOT);
                Expr.IsValue v;
                if (c.accept(Keyword.NULL)) {
                    v = Expr.IsValue.NULL;
                } else if (c.accept(Keyword.TRUE)) {
                    v = Expr.IsValue.TRUE;
                } else if (c.accept(Keyword.FALSE)) {
                    v = Expr.IsValue.FALSE;
                } else if (c.accept(Keyword.UNKNOWN)) {
                    v = Expr.IsValue.UNKNOWN;
                } else {
                    throw c.error("expected NULL, TRUE, FALSE or UNKNOWN after IS");
                }
                return new Expr.IsTest(c.spanFrom(start), left, v, not);
            }
            case SOUNDS:
                c.expect(Keyword.LIKE);
                return binary(start, BinaryOp.SOUNDS_LIKE, left, expr(prec + 1));
            case MEMBER: {
                c.accept(Keyword.OF);
                c.expect(TokenType.LPAREN);
                Expr json = expr();
                c.expect(TokenType.RPAREN);
                return binary(start, BinaryOp.MEMBER_OF, left, json);
            }
            case NOT:
                return predicate(start, left, c.kw(), true, prec);
            default:
                c.pos--;
                return predicate(start, left, k, false, prec);
        }
    }

    private static Expr binary(int start, BinaryOp op, Expr left, Expr right) {
        return new Expr.Binary(Span.of(start, right.span().end()), op, left, right);
    }

    /** IN / BETWEEN / LIKE / REGEXP at the cursor (NOT already consumed when negated). */
    private Expr predicate(int start, Expr left, Keyword k, boolean negated, int prec) {
        if (k == null) {
            throw c.error("expected IN, LIKE, BETWEEN or REGEXP");
        }
        c.pos++;
        switch (k) {
            case IN: {
                if (c.type() == TokenType.LPAREN && c.startsQuery(1)) {
                    Query q = parenthesizedQuery();
                    return new Expr.InSubquery(c.spanFrom(start), left, q, negated);
                }
                c.expect(TokenType.LPAREN);
                List<Expr> values = exprList();
                c.expect(TokenType.RPAREN);
                return new Expr.InList(c.spanFrom(start), left, values, negated);
            }
            case BETWEEN: {
                Expr low = expr(P_BIT_OR);
                c.expect(Keyword.AND);
                Expr high = expr(P_BIT_OR);
                return new Expr.Between(c.spanFrom(start), left, low, high, negated);
            }
            case LIKE: {
                Expr pattern = expr(P_BIT_OR);
                Expr escape = c.accept(Keyword.ESCAPE) ? expr(P_BIT_OR) : null;
                return new Expr.Like(c.spanFrom(start), left, pattern, escape, negated);
            }
            case REGEXP, RLIKE: {
                Expr b = binary(start, BinaryOp.REGEXP, left, expr(prec + 1));
                return negated ? new Expr.Unary(b.span(), UnaryOp.NOT, b) : b;
            }
            default:
                c.pos--;
                throw c.error("expected IN, LIKE, BETWEEN or REGEXP");
        }
    }

    private Expr prefix() {
        int start = c.pos;
        TokenType t = c.type();
        switch (t) {
            case MINUS -> {
                c.pos++;
                return unary(start, UnaryOp.MINUS, expr(P_UNARY));
            }
            case PLUS -> {
                c.pos++;
                return unary(start, UnaryOp.PLUS, expr(P_UNARY));
            }
            case TILDE -> {
                c.pos++;
                return unary(start, UnaryOp.BIT_NOT, expr(P_UNARY));
            }
            case BANG -> {
                c.pos++;
                return unary(start, UnaryOp.NOT, expr(P_BANG));
            }
            case KEYWORD -> {
                Keyword k = c.kw();
                if (k == Keyword.NOT) {
                    c.pos++;
                    return unary(start, UnaryOp.NOT, expr(P_NOT + 1));
                }
                if (k == Keyword.BINARY && c.type(1) != TokenType.EOF) {
                    c.pos++;
                    return unary(start, UnaryOp.BINARY, expr(P_COLLATE));
                }
                if (k == Keyword.INTERVAL) {
                    return interval(start);
                }
                return primary();
            }
            default -> {
                return primary();
            }
        }
    }

    private Expr unary(int start, UnaryOp op, Expr operand) {
        return new Expr.Unary(c.spanFrom(start), op, operand);
    }

    /** {@code INTERVAL expr unit}, or the {@code INTERVAL(n, n1, n2, ...)} function. */
    private Expr interval(int start) {
        c.pos++;
        if (c.type() == TokenType.LPAREN) {
            int save = c.pos;
            c.pos++;
            List<Expr> args = exprList();
            c.expect(TokenType.RPAREN);
            if (args.size() > 1 || !isIntervalUnit()) {
                return new Expr.FunctionCall(c.spanFrom(start), null, "INTERVAL", args, false, false, List.of(), null,
                        null, true);
            }
            c.pos = save;
        }
        Expr value = expr(P_BIT_OR);
        String unit = intervalUnit();
        return new Expr.Interval(c.spanFrom(start), value, unit);
    }

    private boolean isIntervalUnit() {
        return c.isAnyWord() && INTERVAL_UNITS.contains(c.tokens.text(c.pos).toUpperCase(Locale.ROOT));
    }

    String intervalUnit() {
        if (!isIntervalUnit()) {
            throw c.error("expected an interval unit");
        }
        return c.upperWord();
    }

    /** A primary expression: literal, slot, variable, column, function call, subquery, parenthesized. */
    Expr primary() {
        int start = c.pos;
        TokenType t = c.type();
        switch (t) {
            case STRING, INTEGER, DECIMAL, FLOAT, HEX, BIT, PLACEHOLDER:
                return c.literal();
            case USER_VARIABLE:
                c.pos++;
                return new Expr.UserVariable(c.spanFrom(start), userVariableName(start));
            case SYSTEM_VARIABLE:
                c.pos++;
                return systemVariable(start);
            case LPAREN:
                return parenthesized(start);
            case IDENTIFIER, QUOTED_IDENTIFIER:
                return identifierExpr(start);
            case LBRACE: {
                // ODBC escape {d '...'}, {ts '...'}, {fn f(x)}: the inner expression stands for it.
                c.pos++;
                c.anyWord();
                Expr inner = expr();
                c.expect(TokenType.RBRACE);
                return inner;
            }
            case KEYWORD:
                return keywordExpr(start);
            default:
                throw c.error("expected an expression");
        }
    }

    String userVariableName(int token) {
        String text = c.tokens.text(token).substring(1);
        if (!text.isEmpty() && (text.charAt(0) == '`' || text.charAt(0) == '\'' || text.charAt(0) == '"')) {
            char q = text.charAt(0);
            text = text.substring(1, text.length() - 1).replace("" + q + q, "" + q);
        }
        return text;
    }

    private Expr systemVariable(int start) {
        String text = c.tokens.text(start).substring(2).replace("`", "");
        VariableScope scope = VariableScope.DEFAULT;
        int dot = text.indexOf('.');
        if (dot > 0) {
            String prefix = text.substring(0, dot).toUpperCase(Locale.ROOT);
            VariableScope s = scopeOf(prefix);
            if (s != null) {
                scope = s;
                text = text.substring(dot + 1);
            }
        }
        return new Expr.SystemVariable(c.spanFrom(start), scope, text.toLowerCase(Locale.ROOT));
    }

    static VariableScope scopeOf(String upper) {
        return switch (upper) {
            case "GLOBAL" -> VariableScope.GLOBAL;
            case "SESSION" -> VariableScope.SESSION;
            case "LOCAL" -> VariableScope.LOCAL;
            case "PERSIST" -> VariableScope.PERSIST;
            case "PERSIST_ONLY" -> VariableScope.PERSIST_ONLY;
            default -> null;
        };
    }

    private Expr parenthesized(int start) {
        if (c.startsQuery(1)) {
            int save = c.pos;
            try {
                Query q = parenthesizedQuery();
                return new Expr.Subquery(c.spanFrom(start), q);
            } catch (SqlSyntaxException e) {
                c.pos = save;
                if (c.type(1) != TokenType.LPAREN) {
                    throw e;
                }
                // ((SELECT 1) + 1): not a query after all; read it as an expression.
            }
        }
        c.pos++;
        List<Expr> items = exprList();
        c.expect(TokenType.RPAREN);
        if (items.size() == 1) {
            return items.get(0);
        }
        return new Expr.Row(c.spanFrom(start), items);
    }

    /** {@code ( query )}: the parentheses belong to the subquery syntax, not to the query. */
    Query parenthesizedQuery() {
        c.expect(TokenType.LPAREN);
        Query q = queries.queryExpression();
        c.expect(TokenType.RPAREN);
        return q;
    }

    private Expr identifierExpr(int start) {
        if (c.isWord("PREVIOUS") && c.isAt(1, Keyword.VALUE) && c.isAt(2, Keyword.FOR)) {
            c.pos += 3;
            return new Expr.PreviousValue(c.spanFrom(start), c.tableName());
        }
        if (c.type(1) == TokenType.LPAREN) {
            String name = c.identifierText(c.pos);
            c.pos++;
            return functions.call(start, null, name);
        }
        if (c.type(1) == TokenType.DOT && c.type(3) == TokenType.LPAREN && isWord(2)) {
            String schema = c.identifierText(c.pos);
            String name = c.identifierText(c.pos + 2);
            c.pos += 3;
            return functions.call(start, schema, name);
        }
        return columnRef(start);
    }

    private boolean isWord(int ahead) {
        TokenType t = c.type(ahead);
        return t == TokenType.IDENTIFIER || t == TokenType.QUOTED_IDENTIFIER || t == TokenType.KEYWORD;
    }

    /** {@code [[schema.]table.]column} at the cursor ({@code start} is the cursor position). */
    Expr.ColumnRef columnRef(int start) {
        if (!c.isIdentifier()) {
            throw c.error("expected a column name");
        }
        String a = c.identifierText(c.pos++);
        if (c.type() != TokenType.DOT || !isWord(1)) {
            return new Expr.ColumnRef(c.spanFrom(start), null, null, a);
        }
        c.pos++;
        String b = c.identifierText(c.pos++);
        if (c.type() != TokenType.DOT || !isWord(1)) {
            return new Expr.ColumnRef(c.spanFrom(start), null, a, b);
        }
        c.pos++;
        String col = c.identifierText(c.pos++);
        return new Expr.ColumnRef(c.spanFrom(start), a, b, col);
    }

    private Expr keywordExpr(int start) {
        Keyword k = c.kw();
        boolean call = c.type(1) == TokenType.LPAREN;
        switch (k) {
            case NULL:
                return word(start, LiteralKind.NULL);
            case TRUE:
                return word(start, LiteralKind.TRUE);
            case FALSE:
                return word(start, LiteralKind.FALSE);
            case DEFAULT:
                if (!call) {
                    return word(start, LiteralKind.DEFAULT);
                }
                break;
            case CASE:
                return caseExpr(start);
            case EXISTS: {
                c.pos++;
                Query q = parenthesizedQuery();
                return new Expr.Exists(c.spanFrom(start), q);
            }
            case ROW:
                if (call) {
                    c.pos++;
                    c.pos++;
                    List<Expr> items = exprList();
                    c.expect(TokenType.RPAREN);
                    return new Expr.Row(c.spanFrom(start), items);
                }
                break;
            case DATE, TIME, TIMESTAMP:
                if (c.type(1) == TokenType.STRING) {
                    String type = c.upperWord();
                    Expr value = c.literal();
                    return new Expr.TemporalLiteral(c.spanFrom(start), type, value);
                }
                break;
            case CONVERT:
                if (call) {
                    return functions.convert(start);
                }
                break;
            case MATCH:
                if (call) {
                    return functions.match(start);
                }
                break;
            case CHAR:
                if (call) {
                    return functions.charFunction(start);
                }
                break;
            case CURRENT_TIMESTAMP, CURRENT_DATE, CURRENT_TIME, CURRENT_USER, LOCALTIME, LOCALTIMESTAMP, UTC_DATE,
                    UTC_TIME, UTC_TIMESTAMP:
                if (!call) {
                    String name = c.upperWord();
                    return new Expr.FunctionCall(c.spanFrom(start), null, name, List.of(), false, false, List.of(),
                            null, null, false);
                }
                break;
            case NEXT:
                if (c.isAt(1, Keyword.VALUE) && c.isAt(2, Keyword.FOR)) {
                    c.pos += 3;
                    TableName seq = c.tableName();
                    return new Expr.NextValue(c.spanFrom(start), seq);
                }
                break;
            default:
                break;
        }
        if (call) {
            String name = c.tokens.text(c.pos).toUpperCase(Locale.ROOT);
            c.pos++;
            return functions.call(start, null, name);
        }
        if (!k.isReserved()) {
            return identifierExpr(start);
        }
        throw c.error("unexpected keyword " + k);
    }

    private Expr word(int start, LiteralKind kind) {
        c.pos++;
        return new Expr.Literal(c.spanFrom(start), kind, kind.name());
    }

    private Expr caseExpr(int start) {
        c.pos++;
        Expr operand = c.is(Keyword.WHEN) ? null : expr();
        List<Expr.When> whens = new ArrayList<>();
        while (c.is(Keyword.WHEN)) {
            int w = c.pos++;
            Expr cond = expr();
            c.expect(Keyword.THEN);
            Expr result = expr();
            whens.add(new Expr.When(c.spanFrom(w), cond, result));
        }
        if (whens.isEmpty()) {
            throw c.error("expected WHEN");
        }
        Expr otherwise = c.accept(Keyword.ELSE) ? expr() : null;
        c.expect(Keyword.END);
        return new Expr.Case(c.spanFrom(start), operand, whens, otherwise);
    }

}
