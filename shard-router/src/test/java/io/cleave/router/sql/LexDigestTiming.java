package io.cleave.router.sql;

import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.parse.SqlParser;

import java.nio.charset.StandardCharsets;

/**
 * A rough nanoTime loop for lex + digest (the hot path) and parse (the cold path), until a JMH
 * benchmark exists. Not a test: run its main from the test classpath.
 */
public final class LexDigestTiming {

    private LexDigestTiming() {
    }

    public static void main(String[] args) {
        String[] statements = {
            "SELECT c FROM sbtest1 WHERE id=4711",
            "SELECT c FROM sbtest1 WHERE id BETWEEN 4711 AND 4810 ORDER BY c",
            "UPDATE stock SET s_quantity = 43, s_ytd = s_ytd + 5, s_order_cnt = s_order_cnt + 1,"
                    + " s_remote_cnt = s_remote_cnt + 0 WHERE s_i_id = 77123 AND s_w_id = 17",
        };
        for (String sql : statements) {
            measure(sql);
        }
    }

    private static void measure(String sql) {
        byte[] bytes = sql.getBytes(StandardCharsets.US_ASCII);
        SqlLexer lexer = new SqlLexer();
        TokenBuffer tokens = new TokenBuffer();
        StatementDigest digest = new StatementDigest();
        SqlParser parser = new SqlParser();
        long sink = 0;
        int n = 5_000_000;
        for (int round = 0; round < 3; round++) {
            long t0 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                lexer.lex(bytes, tokens);
                sink += tokens.size();
            }
            long t1 = System.nanoTime();
            for (int i = 0; i < n; i++) {
                lexer.lex(bytes, tokens);
                digest.compute(tokens);
                sink += digest.hash();
            }
            long t2 = System.nanoTime();
            int m = n / 10;
            for (int i = 0; i < m; i++) {
                lexer.lex(bytes, tokens);
                digest.compute(tokens);
                Statement s = parser.parse(tokens, digest);
                sink += s.span().end();
            }
            long t3 = System.nanoTime();
            if (round == 2) {
                System.out.printf("%3d bytes %2d tokens: lex %5.0f ns, lex+digest %5.0f ns, lex+digest+parse %6.0f ns  | %s%n",
                        bytes.length, tokens.size(), (t1 - t0) / (double) n, (t2 - t1) / (double) n,
                        (t3 - t2) / (double) m, sql.length() > 60 ? sql.substring(0, 60) + "..." : sql);
            }
        }
        if (sink == 42) {
            System.out.println();
        }
    }
}
