package io.cleave.router.sql;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The plan-cache invariant: a statement rewritten with other literal values, other whitespace
 * and comments, and other keyword case has the same digest key and an equal AST (spans and slot
 * numbers included), so a plan made from one is right for the other.
 */
class DigestInvariantTest {

    static List<String> goldenStatements() throws IOException {
        List<String> out = new ArrayList<>();
        try (InputStream in = DigestInvariantTest.class.getResourceAsStream("/sql/parser-golden.json")) {
            for (JsonNode n : new ObjectMapper().readTree(in)) {
                out.add(n.get("sql").asText());
            }
        }
        return out;
    }

    @ParameterizedTest
    @MethodSource("goldenStatements")
    void otherValuesWhitespaceAndCaseShareTheKeyAndTheTree(String sql) {
        String variant = variant(sql);
        Parsed a = Parsed.of(sql);
        Parsed b = Parsed.of(variant);
        assertThat(b.digest().keyString()).as(variant).isEqualTo(a.digest().keyString());
        assertThat(b.digest().hash()).isEqualTo(a.digest().hash());
        assertThat(b.statement()).as(variant).isEqualTo(a.statement());
    }

    /** Every parameterized literal replaced, a comment between tokens, keywords in flipped case. */
    private static String variant(String sql) {
        TokenBuffer t = new TokenBuffer();
        byte[] bytes = sql.getBytes(StandardCharsets.UTF_8);
        new SqlLexer().lex(bytes, t);
        StatementDigest d = new StatementDigest();
        d.compute(t);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < t.size(); i++) {
            if (i > 0) {
                // Keep the bytes between tokens when they hold a version comment; else vary them.
                String gap = new String(bytes, t.end(i - 1), t.start(i) - t.end(i - 1), StandardCharsets.UTF_8);
                sb.append(gap.contains("/*") || gap.contains("*/") || gap.contains("--") || gap.contains("#")
                        ? gap : i % 2 == 0 ? "  /* c */ " : "\n\t");
            } else {
                sb.append(new String(bytes, 0, t.start(0), StandardCharsets.UTF_8));
            }
            sb.append(replacement(t, d, i));
        }
        sb.append(new String(bytes, t.size() == 0 ? 0 : t.end(t.size() - 1),
                bytes.length - (t.size() == 0 ? 0 : t.end(t.size() - 1)), StandardCharsets.UTF_8));
        return sb.toString();
    }

    private static String replacement(TokenBuffer t, StatementDigest d, int i) {
        String text = t.text(i);
        TokenType type = t.type(i);
        if (type == TokenType.KEYWORD) {
            return flipCase(text);
        }
        if (d.slotOfToken(i) < 0 || type == TokenType.PLACEHOLDER) {
            return text;
        }
        if ((t.flags(i) & (TokenBuffer.FLAG_INTRODUCER | TokenBuffer.FLAG_NATIONAL)) != 0) {
            return text;
        }
        return switch (type) {
            case INTEGER -> "987654321";
            case DECIMAL -> "3.25";
            case FLOAT -> "6.5e-3";
            case STRING -> "'it''s \\\\ different'";
            case HEX -> "X'C0FFEE'";
            case BIT -> "b'101'";
            default -> text;
        };
    }

    private static String flipCase(String s) {
        String upper = s.toUpperCase(Locale.ROOT);
        return upper.equals(s) ? s.toLowerCase(Locale.ROOT) : upper;
    }
}
