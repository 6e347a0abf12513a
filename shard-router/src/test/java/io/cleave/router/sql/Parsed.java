package io.cleave.router.sql;

import io.cleave.router.sql.ast.Node;
import io.cleave.router.sql.ast.Span;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.digest.SlotValues;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.parse.SqlParser;

import java.nio.charset.StandardCharsets;

/** One statement taken through lexer, digest and parser, as the proxy does on a cache miss. */
record Parsed(String sql, TokenBuffer tokens, StatementDigest digest, Statement statement) {

    static Parsed of(String sql) {
        return of(sql, SqlMode.DEFAULT);
    }

    static Parsed of(String sql, SqlMode mode) {
        TokenBuffer tokens = new TokenBuffer();
        new SqlLexer(mode).lex(sql.getBytes(StandardCharsets.UTF_8), tokens);
        StatementDigest digest = new StatementDigest();
        digest.compute(tokens);
        return new Parsed(sql, tokens, digest, new SqlParser().parse(tokens, digest));
    }

    <T extends Statement> T as(Class<T> type) {
        return type.cast(statement);
    }

    SlotValues values() {
        return new SlotValues(tokens, digest);
    }

    /** The original text a node was parsed from. */
    String text(Node node) {
        return text(node.span());
    }

    String text(Span span) {
        return span.text(tokens);
    }
}
