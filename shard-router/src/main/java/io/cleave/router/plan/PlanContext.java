package io.cleave.router.plan;

import io.cleave.router.sql.ast.Span;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.topology.Topology;

/** What planning one statement may look at: the topology and the statement's tokens and digest. */
final class PlanContext {

    final Topology topology;
    final TokenBuffer tokens;
    final StatementDigest digest;

    PlanContext(Topology topology, TokenBuffer tokens, StatementDigest digest) {
        this.topology = topology;
        this.tokens = tokens;
        this.digest = digest;
    }

    int tokenCount() {
        return tokens.size();
    }

    /** Whether two spans are the same expression as written (keywords and names case-insensitively, slots by number). */
    boolean sameTokens(Span a, Span b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            int x = a.first() + i;
            int y = b.first() + i;
            if (tokens.type(x) != tokens.type(y)) {
                return false;
            }
            int sx = digest.slotOfToken(x);
            int sy = digest.slotOfToken(y);
            if (sx >= 0 || sy >= 0) {
                if (sx != sy) {
                    return false;
                }
                continue;
            }
            if (!tokens.text(x).equalsIgnoreCase(tokens.text(y))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The statement's text over {@code span} for a message, each literal shown as {@code ?}: plans
     * are cached per shape and shared by every session, so a message must not carry one
     * statement's values to another.
     */
    String text(Span span) {
        if (span.isEmpty()) {
            return "";
        }
        byte[] src = tokens.source();
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream();
        int pos = tokens.start(span.first());
        for (int i = span.first(); i < span.end(); i++) {
            if (digest.slotOfToken(i) >= 0) {
                out.write(src, pos, tokens.start(i) - pos);
                out.write('?');
                pos = tokens.end(i);
            }
        }
        out.write(src, pos, tokens.end(span.end() - 1) - pos);
        return out.toString(java.nio.charset.StandardCharsets.UTF_8);
    }
}
