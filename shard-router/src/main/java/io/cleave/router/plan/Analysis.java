package io.cleave.router.plan;

import io.cleave.router.sql.digest.SlotValues;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.VersionComments;

/**
 * The router's working buffers and its answer for the last statement analyzed with them: the
 * tokens, the digest, the literal values and the plan. One per event loop for text statements
 * (reused, so the hot path allocates nothing); one per prepared statement (kept, since its
 * executions need its tokens).
 */
public final class Analysis {

    private final SqlLexer[] lexers = new SqlLexer[Router.MODES];
    final TokenBuffer tokens = new TokenBuffer();
    final StatementDigest digest = new StatementDigest();
    final SlotValues slots = new SlotValues();
    Plan plan;
    boolean cached;
    long generation;

    SqlLexer lexer(SqlMode mode, VersionComments versions) {
        int i = Router.modeIndex(mode);
        SqlLexer lexer = lexers[i];
        if (lexer == null || lexer.versions() != versions) {
            lexer = new SqlLexer(mode, versions);
            lexers[i] = lexer;
        }
        return lexer;
    }

    public Plan plan() {
        return plan;
    }

    public TokenBuffer tokens() {
        return tokens;
    }

    public StatementDigest digest() {
        return digest;
    }

    public SlotValues slots() {
        return slots;
    }

    /** The router generation (topology) the plan belongs to. */
    public long generation() {
        return generation;
    }

    /** Whether the plan came from the cache (statement shape seen before). */
    public boolean cached() {
        return cached;
    }
}
