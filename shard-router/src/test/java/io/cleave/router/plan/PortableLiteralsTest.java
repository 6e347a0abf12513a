package io.cleave.router.plan;

import io.cleave.router.sql.lex.SqlMode;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A statement's literals written so that every session reads them alike (Cleave's procedure
 * parses the lookup statements again, under the caller's sql_mode but its own character set):
 * strings from their bytes as the client's session read them, escapes and mode included.
 */
class PortableLiteralsTest {

    private final Router router = new Router(TestTopologies.fourShards());

    /** The first literal of {@code sql} (read in {@code mode} on a {@code charset} connection), portable. */
    private String portable(String sql, SqlMode mode, Charset charset) {
        Analysis a = router.analyze(sql.getBytes(charset), mode, new Analysis());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new LiteralParameters().bind(a, charset).appendPortableSql(0, out);
        return out.toString(StandardCharsets.US_ASCII);
    }

    private String portable(String sql) {
        return portable(sql, SqlMode.DEFAULT, StandardCharsets.UTF_8);
    }

    @Test
    void stringsGoAsHexOfTheirBytesWithTheirCharacterSet() {
        assertThat(portable("SELECT * FROM sbtest1 WHERE c = 'a'")).isEqualTo("_utf8mb4 X'61'");
        assertThat(portable("SELECT * FROM sbtest1 WHERE c = 'é'")).isEqualTo("_utf8mb4 X'C3A9'");
        assertThat(portable("SELECT * FROM sbtest1 WHERE c = _latin1'a'")).isEqualTo("_latin1 X'61'");
        assertThat(portable("SELECT * FROM sbtest1 WHERE c = ''")).isEqualTo("_utf8mb4 X''");
    }

    @Test
    void escapesAreReadAsTheClientsSessionReadsThem() {
        // A quote and a backslash inside the value can end no literal once it is hex.
        assertThat(portable("SELECT * FROM sbtest1 WHERE c = 'a\\'b'")).isEqualTo("_utf8mb4 X'612762'");
        assertThat(portable("SELECT * FROM sbtest1 WHERE c = 'a''b'")).isEqualTo("_utf8mb4 X'612762'");
        assertThat(portable("SELECT * FROM sbtest1 WHERE c = 'a\\\\'")).isEqualTo("_utf8mb4 X'615C'");
        assertThat(portable("SELECT * FROM sbtest1 WHERE c = 'a\\'", SqlMode.fromSqlMode("NO_BACKSLASH_ESCAPES"),
                StandardCharsets.UTF_8)).isEqualTo("_utf8mb4 X'615C'");
    }

    @Test
    void anotherConnectionCharacterSetKeepsTheClientsBytesUnderItsIntroducer() {
        Charset latin1 = Charset.forName("windows-1252");
        assertThat(portable("SELECT * FROM sbtest1 WHERE c = 'é'", SqlMode.DEFAULT, latin1)).isEqualTo("_latin1 X'E9'");
    }

    @Test
    void numbersStayAsWrittenAndHexLiteralsKeepWhetherTheyReadAsNumbers() {
        assertThat(portable("SELECT * FROM sbtest1 WHERE id = 42")).isEqualTo("42");
        assertThat(portable("SELECT * FROM sbtest1 WHERE id = 1.5e3")).isEqualTo("1.5e3");
        assertThat(portable("SELECT * FROM sbtest1 WHERE id = 0x41")).isEqualTo("0x41");
        assertThat(portable("SELECT * FROM sbtest1 WHERE c = X'41'")).isEqualTo("_binary X'41'");
        assertThat(portable("SELECT * FROM sbtest1 WHERE c = _utf8mb4 X'41'")).isEqualTo("_utf8mb4 X'41'");
    }

    @Test
    void onlyNumbersAndWordsCountAsPlain() {
        assertThat(PortableLiterals.plain("1e-5".getBytes(StandardCharsets.US_ASCII))).isTrue();
        assertThat(PortableLiterals.plain("1--5".getBytes(StandardCharsets.US_ASCII))).isFalse();
        assertThat(PortableLiterals.plain("1/*".getBytes(StandardCharsets.US_ASCII))).isFalse();
        assertThat(PortableLiterals.plain("'".getBytes(StandardCharsets.US_ASCII))).isFalse();
    }
}
