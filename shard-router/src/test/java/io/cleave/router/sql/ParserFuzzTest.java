package io.cleave.router.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.router.sql.digest.SlotValues;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.sql.parse.SqlSyntaxException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.fail;

/**
 * Lexer, digest and parser must survive any input: the only exception allowed is a
 * {@link SqlSyntaxException} that is not wrapping an internal error. Seeds are fixed so a
 * failure reproduces.
 */
class ParserFuzzTest {

    private static final String[] VOCABULARY = {
        "SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IN", "IS", "NULL", "LIKE", "BETWEEN", "(", ")", ",", ".",
        "*", "+", "-", "/", "=", "<=>", "<>", "!", "?", "1", "2.5", "'s'", "\"d\"", "x'0A'", "0x1F", "b'1'", "a", "t",
        "`q`", "@u", "@@session.v", "GROUP", "BY", "ORDER", "LIMIT", "OFFSET", "HAVING", "UNION", "ALL", "JOIN", "LEFT",
        "ON", "USING", "AS", "INSERT", "INTO", "VALUES", "UPDATE", "SET", "DELETE", "CASE", "WHEN", "THEN", "ELSE",
        "END", "EXISTS", "DISTINCT", "COUNT", "SUM", "CAST", "CONVERT", "INTERVAL", "DAY", "WITH", "RECURSIVE",
        "FOR", "SHARE", "LOCK", "CREATE", "TABLE", "PRIMARY", "KEY", "AUTO_INCREMENT", "INT", "DROP", "SHOW",
        "TABLES", "BEGIN", "COMMIT", "ROLLBACK", "TO", "XA", "START", "USE", "EXPLAIN", "DESC", ";", ":=", "->",
        "->>", "/*!40101 ", "*/", "/*+ h */", "-- c\n", "#c\n", "NAMES", "GLOBAL", "TRANSACTION", "ISOLATION",
        "LEVEL", "READ", "WRITE", "PARTITION", "OVER", "ROWS", "TRIM", "LEADING", "SUBSTRING", "POSITION",
        "MATCH", "AGAINST", "_utf8mb4'x'", "N'n'", "DEFAULT", "DUPLICATE", "RETURNING", "ANY", "SOME", "ROW",
        "DATE", "'2020-01-01'", "NEXT", "VALUE", "EXTRACT", "COLLATE", "BINARY", "DIV", "MOD", "^", "~", "|", "&",
        "<<", ">>", "%", "{", "}", "PREPARE", "EXECUTE", "CALL", "DO", "LOAD", "DATA", "HANDLER", "GRANT",
    };

    private final SqlLexer lexer = new SqlLexer();
    private final SqlLexer ansiLexer = new SqlLexer(new SqlMode(true, true));
    private final TokenBuffer tokens = new TokenBuffer();
    private final StatementDigest digest = new StatementDigest();
    private final SqlParser parser = new SqlParser();

    private void check(byte[] sql) {
        for (SqlLexer l : new SqlLexer[] {lexer, ansiLexer}) {
            try {
                l.lex(sql, tokens);
                digest.compute(tokens);
                SlotValues values = new SlotValues(tokens, digest);
                for (int s = 0; s < values.count(); s++) {
                    values.byteStart(s);
                    values.byteEnd(s);
                }
                parser.parse(tokens, digest);
            } catch (SqlSyntaxException e) {
                if (e.getCause() != null) {
                    fail("internal error for input: " + describe(sql), e.getCause());
                }
                if (e.getMessage() == null || e.detail() == null) {
                    fail("syntax error without a message for input: " + describe(sql));
                }
            } catch (Throwable t) {
                fail("unexpected " + t + " for input: " + describe(sql), t);
            }
        }
    }

    private static String describe(byte[] sql) {
        String text = new String(sql, StandardCharsets.UTF_8);
        String shown = text.length() > 200 ? text.substring(0, 200) + "...(" + text.length() + " chars)" : text;
        return shown + (sql.length <= 100 ? " " + java.util.Arrays.toString(sql) : "");
    }

    @Test
    void randomBytes() {
        Random random = new Random(1);
        byte[] alphabet = "SELECT FROM where()'\"`\\-#/*!+?@.,;:=<>|&^~%{}0123456789xXbBnN_$eE \n\t".getBytes(StandardCharsets.US_ASCII);
        for (int i = 0; i < 20_000; i++) {
            byte[] sql = new byte[random.nextInt(60)];
            for (int k = 0; k < sql.length; k++) {
                sql[k] = random.nextInt(4) == 0 ? (byte) random.nextInt(256) : alphabet[random.nextInt(alphabet.length)];
            }
            check(sql);
        }
    }

    @Test
    void tokenSoup() {
        Random random = new Random(2);
        for (int i = 0; i < 30_000; i++) {
            StringBuilder sb = new StringBuilder();
            int n = 1 + random.nextInt(30);
            if (random.nextBoolean()) {
                sb.append(VOCABULARY[random.nextInt(8) == 0 ? 0 : random.nextInt(VOCABULARY.length)]).append(' ');
            }
            for (int k = 0; k < n; k++) {
                sb.append(VOCABULARY[random.nextInt(VOCABULARY.length)]).append(random.nextInt(5) == 0 ? "" : " ");
            }
            check(sb.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    @Test
    void everyPrefixAndMutationOfTheGoldenStatements() throws IOException {
        Random random = new Random(3);
        for (String sql : goldenStatements()) {
            byte[] bytes = sql.getBytes(StandardCharsets.UTF_8);
            for (int len = 0; len <= bytes.length; len++) {
                check(java.util.Arrays.copyOf(bytes, len));
            }
            for (int m = 0; m < 20; m++) {
                byte[] mutated = bytes.clone();
                if (mutated.length > 0) {
                    mutated[random.nextInt(mutated.length)] = (byte) VOCABULARY[random.nextInt(VOCABULARY.length)].charAt(0);
                }
                check(mutated);
            }
        }
    }

    @Test
    void deepNestingIsASyntaxErrorNotAStackOverflow() {
        check(("SELECT " + "(".repeat(50_000) + "1" + ")".repeat(50_000)).getBytes(StandardCharsets.US_ASCII));
        check(("SELECT " + "-".repeat(50_000) + "1").getBytes(StandardCharsets.US_ASCII));
        check(("SELECT " + "NOT ".repeat(50_000) + "1").getBytes(StandardCharsets.US_ASCII));
        check(("SELECT @a := ".repeat(20_000) + "1").getBytes(StandardCharsets.US_ASCII));
        check(("SELECT * FROM t WHERE a IN (SELECT a FROM t WHERE a IN ".repeat(5_000) + "(1)").getBytes(StandardCharsets.US_ASCII));
        check(("SELECT * FROM " + "(".repeat(20_000) + "t").getBytes(StandardCharsets.US_ASCII));
        check(("SELECT CASE WHEN ".repeat(20_000) + "1").getBytes(StandardCharsets.US_ASCII));
        check(("SELECT 1" + " + 1".repeat(50_000)).getBytes(StandardCharsets.US_ASCII));
    }

    private static List<String> goldenStatements() throws IOException {
        List<String> out = new ArrayList<>();
        try (InputStream in = ParserFuzzTest.class.getResourceAsStream("/sql/parser-golden.json")) {
            for (JsonNode n : new ObjectMapper().readTree(in)) {
                out.add(n.get("sql").asText());
            }
        }
        return out;
    }
}
