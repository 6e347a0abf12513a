package io.cleave.proxy.deadlock;

import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.TokenBuffer;

import java.nio.charset.StandardCharsets;

/**
 * A client's statement as it may appear in a log or a status page: its shape only. Every literal
 * becomes {@code ?} (values may be personal data or secrets), control characters go (no forged
 * log lines), and long text is cut.
 */
final class StatementText {

    static final int MAX_LENGTH = 300;

    private StatementText() {
    }

    static String sanitize(String sql) {
        if (sql == null || sql.isBlank()) {
            return "(no statement running)";
        }
        String shape;
        try {
            byte[] bytes = sql.getBytes(StandardCharsets.UTF_8);
            TokenBuffer tokens = new TokenBuffer();
            new SqlLexer().lex(bytes, tokens);
            StatementDigest digest = new StatementDigest();
            digest.compute(tokens);
            // The digest spaces every token; qualified names and lists read better closed up.
            shape = digest.keyString().replace(" . ", ".").replace(" , ", ", ");
        } catch (RuntimeException e) {
            // Text the lexer cannot read is not shown at all: it could hold anything.
            return "(statement not shown: it could not be read)";
        }
        StringBuilder out = new StringBuilder(Math.min(shape.length(), MAX_LENGTH + 3));
        for (int i = 0; i < shape.length() && out.length() < MAX_LENGTH; i++) {
            char c = shape.charAt(i);
            out.append(Character.isISOControl(c) ? ' ' : c);
        }
        if (shape.length() > MAX_LENGTH) {
            out.append("...");
        }
        return out.toString();
    }
}
