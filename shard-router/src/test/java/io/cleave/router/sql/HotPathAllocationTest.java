package io.cleave.router.sql;

import io.cleave.router.sql.digest.DigestKey;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.TokenBuffer;
import org.junit.jupiter.api.Test;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Once warm, lexing, digesting and a plan-cache hit allocate nothing. */
class HotPathAllocationTest {

    @Test
    void lexDigestAndCacheHitAllocateNothingOnceWarm() {
        assumeTrue(ManagementFactory.getThreadMXBean() instanceof com.sun.management.ThreadMXBean);
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assumeTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled());

        byte[][] statements = {
            "SELECT c FROM sbtest1 WHERE id=4711".getBytes(StandardCharsets.US_ASCII),
            "UPDATE sbtest1 SET k=k+1 WHERE id=12".getBytes(StandardCharsets.US_ASCII),
            "INSERT INTO sbtest1 (id, k, c, pad) VALUES (1, 2, 'ccc', 'pad') /* tail */".getBytes(StandardCharsets.US_ASCII),
        };
        SqlLexer lexer = new SqlLexer();
        TokenBuffer tokens = new TokenBuffer();
        StatementDigest digest = new StatementDigest();
        Map<DigestKey, String> cache = new HashMap<>();
        for (byte[] sql : statements) {
            lexer.lex(sql, tokens);
            digest.compute(tokens);
            cache.put(digest.toKey(), "plan");
        }
        long sink = run(statements, lexer, tokens, digest, cache, 20_000);
        long thread = Thread.currentThread().getId();
        long before = mx.getThreadAllocatedBytes(thread);
        sink += run(statements, lexer, tokens, digest, cache, 20_000);
        long allocated = mx.getThreadAllocatedBytes(thread) - before;
        assertThat(sink).isNotZero();
        // A little slack for the measurement itself; per statement this must be zero.
        assertThat(allocated).isLessThan(1_000);
    }

    private static long run(byte[][] statements, SqlLexer lexer, TokenBuffer tokens, StatementDigest digest,
                            Map<DigestKey, String> cache, int rounds) {
        long sink = 0;
        for (int i = 0; i < rounds; i++) {
            byte[] sql = statements[i % statements.length];
            lexer.lex(sql, tokens);
            digest.compute(tokens);
            if (cache.get(digest.lookupKey()) != null) {
                sink += digest.hash() + digest.slotCount();
            }
        }
        return sink;
    }
}
