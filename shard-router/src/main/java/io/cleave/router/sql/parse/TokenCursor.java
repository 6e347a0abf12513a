package io.cleave.router.sql.parse;

import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Name;
import io.cleave.router.sql.ast.Span;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.digest.LiteralDecoder;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.nio.charset.StandardCharsets;
import java.util.Locale;

/** The parser's position in the token buffer, with the small lookahead and expect helpers all parsers share. */
final class TokenCursor {

    /** Nesting deeper than this is refused rather than risking a stack overflow. */
    private static final int MAX_DEPTH = 200;

    final TokenBuffer tokens;
    final StatementDigest digest;
    int pos;
    private int depth;

    TokenCursor(TokenBuffer tokens, StatementDigest digest) {
        this.tokens = tokens;
        this.digest = digest;
    }

    TokenType type() {
        return tokens.type(pos);
    }

    TokenType type(int ahead) {
        return tokens.type(pos + ahead);
    }

    Keyword kw() {
        return tokens.keyword(pos);
    }

    Keyword kw(int ahead) {
        return tokens.keyword(pos + ahead);
    }

    boolean is(TokenType t) {
        return tokens.type(pos) == t;
    }

    boolean is(Keyword k) {
        return tokens.isKeyword(pos, k);
    }

    boolean isAt(int ahead, Keyword k) {
        return tokens.isKeyword(pos + ahead, k);
    }

    boolean accept(TokenType t) {
        if (tokens.type(pos) == t) {
            pos++;
            return true;
        }
        return false;
    }

    boolean accept(Keyword k) {
        if (tokens.isKeyword(pos, k)) {
            pos++;
            return true;
        }
        return false;
    }

    int expect(TokenType t) {
        if (tokens.type(pos) != t) {
            throw error("expected " + t);
        }
        return pos++;
    }

    int expect(Keyword k) {
        if (!tokens.isKeyword(pos, k)) {
            throw error("expected " + k);
        }
        return pos++;
    }

    /** True if the current token is a word (identifier or keyword) spelled {@code upper}, any case. */
    boolean isWord(String upper) {
        return isWordAt(0, upper);
    }

    boolean isWordAt(int ahead, String upper) {
        TokenType t = tokens.type(pos + ahead);
        return (t == TokenType.IDENTIFIER || t == TokenType.KEYWORD) && tokens.textEqualsIgnoreCase(pos + ahead, upper);
    }

    boolean acceptWord(String upper) {
        if (isWord(upper)) {
            pos++;
            return true;
        }
        return false;
    }

    void expectWord(String upper) {
        if (!acceptWord(upper)) {
            throw error("expected " + upper);
        }
    }

    /** True at the end of the statement (end of tokens or a ';'). */
    boolean atEnd() {
        TokenType t = type();
        return t == TokenType.EOF || t == TokenType.SEMICOLON;
    }

    /** An identifier: unquoted, quoted, or a non-reserved keyword. */
    boolean isIdentifier() {
        return isIdentifierAt(0);
    }

    boolean isIdentifierAt(int ahead) {
        TokenType t = tokens.type(pos + ahead);
        if (t == TokenType.IDENTIFIER || t == TokenType.QUOTED_IDENTIFIER) {
            return true;
        }
        return t == TokenType.KEYWORD && !tokens.keyword(pos + ahead).isReserved();
    }

    /** A word of any kind (identifier or keyword, reserved or not): where MySQL accepts any word. */
    boolean isAnyWord() {
        TokenType t = type();
        return t == TokenType.IDENTIFIER || t == TokenType.QUOTED_IDENTIFIER || t == TokenType.KEYWORD;
    }

    Name identifier() {
        if (!isIdentifier()) {
            throw error("expected an identifier");
        }
        int i = pos++;
        return new Name(Span.of(i, i + 1), identifierText(i));
    }

    /** Any word, reserved keywords included (after a dot, in option lists). */
    Name anyWord() {
        if (!isAnyWord()) {
            throw error("expected a name");
        }
        int i = pos++;
        return new Name(Span.of(i, i + 1), identifierText(i));
    }

    /** The upper-case text of the current word, advancing past it. */
    String upperWord() {
        if (!isAnyWord()) {
            throw error("expected a word");
        }
        return identifierText(pos++).toUpperCase(Locale.ROOT);
    }

    /**
     * An identifier token's name: quotes removed and doubled quotes undone. A keyword used as a
     * name ({@code status}, {@code date}) is given in lower case: the digest folds keyword case, so
     * anything the AST says must not depend on it (MySQL compares column names, and the router
     * table names, case-insensitively).
     */
    String identifierText(int i) {
        TokenType type = tokens.type(i);
        if (type == TokenType.KEYWORD) {
            return tokens.text(i).toLowerCase(Locale.ROOT);
        }
        if (type != TokenType.QUOTED_IDENTIFIER) {
            return tokens.text(i);
        }
        byte[] src = tokens.source();
        int start = tokens.start(i);
        int end = tokens.end(i);
        byte quote = src[start];
        byte[] out = new byte[end - start - 2];
        int n = 0;
        for (int p = start + 1; p < end - 1; p++) {
            out[n++] = src[p];
            if (src[p] == quote) {
                p++;
            }
        }
        return new String(out, 0, n, StandardCharsets.UTF_8);
    }

    /** {@code [schema.]name}. */
    TableName tableName() {
        int start = pos;
        Name first = identifier();
        if (type() == TokenType.DOT && isWordAfterDot()) {
            pos++;
            Name second = anyWord();
            return new TableName(spanFrom(start), first.value(), second.value());
        }
        return new TableName(spanFrom(start), null, first.value());
    }

    private boolean isWordAfterDot() {
        TokenType t = type(1);
        return t == TokenType.IDENTIFIER || t == TokenType.QUOTED_IDENTIFIER || t == TokenType.KEYWORD;
    }

    /** A string literal's decoded text (cold path: aliases, names given as strings). */
    String stringText(int i) {
        return new String(LiteralDecoder.bytes(tokens, i, 1), StandardCharsets.UTF_8);
    }

    /** The slot or literal for the literal token(s) at the cursor, advancing past them. */
    Expr literal() {
        int start = pos;
        TokenType t = type();
        int slot = digest.slotOfToken(start);
        if (slot >= 0) {
            pos = digest.slotToken(slot) + digest.slotTokenCount(slot);
            return new Expr.Slot(spanFrom(start), slot);
        }
        Expr.LiteralKind kind = switch (t) {
            case STRING -> Expr.LiteralKind.STRING;
            case INTEGER -> Expr.LiteralKind.INTEGER;
            case DECIMAL -> Expr.LiteralKind.DECIMAL;
            case FLOAT -> Expr.LiteralKind.FLOAT;
            case HEX -> Expr.LiteralKind.HEX;
            case BIT -> Expr.LiteralKind.BIT;
            default -> throw error("expected a literal");
        };
        String text = t == TokenType.STRING ? stringText(start) : tokens.text(start);
        pos++;
        return new Expr.Literal(spanFrom(start), kind, text);
    }

    Span spanFrom(int start) {
        return Span.of(start, Math.max(start, pos));
    }

    void enter() {
        if (++depth > MAX_DEPTH) {
            throw error("statement nested too deeply");
        }
    }

    void leave() {
        depth--;
    }

    /** Skips a balanced parenthesized group starting at the current '('. */
    void skipParens() {
        expect(TokenType.LPAREN);
        int level = 1;
        while (level > 0) {
            TokenType t = type();
            if (t == TokenType.EOF || t == TokenType.ERROR) {
                throw error("unbalanced parentheses");
            }
            if (t == TokenType.LPAREN) {
                level++;
            } else if (t == TokenType.RPAREN) {
                level--;
            }
            pos++;
        }
    }

    /** Skips to the end of the statement (for bodies that are not analyzed). */
    void skipToEnd() {
        while (type() != TokenType.EOF && type() != TokenType.ERROR) {
            pos++;
        }
        if (type() == TokenType.ERROR) {
            throw error("lexical error");
        }
    }

    /** True if a query starts at {@code ahead}, looking through opening parentheses. */
    boolean startsQuery(int ahead) {
        int i = pos + ahead;
        while (tokens.type(i) == TokenType.LPAREN) {
            i++;
        }
        return tokens.isKeyword(i, Keyword.SELECT) || tokens.isKeyword(i, Keyword.WITH)
                || tokens.isKeyword(i, Keyword.VALUES) || tokens.isKeyword(i, Keyword.TABLE);
    }

    SqlSyntaxException error(String detail) {
        int at = Math.min(pos, tokens.size());
        if (tokens.type(at) == TokenType.ERROR) {
            detail = tokens.error(at).message();
        }
        return new SqlSyntaxException(tokens, at, detail);
    }
}
