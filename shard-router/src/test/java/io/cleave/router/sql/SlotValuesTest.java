package io.cleave.router.sql;

import io.cleave.router.sql.digest.SlotValues;
import io.cleave.router.sql.digest.StatementDigest;
import io.cleave.router.sql.lex.SqlLexer;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SlotValuesTest {

    private static SlotValues values(String sql) {
        return values(sql, SqlMode.DEFAULT);
    }

    private static SlotValues values(String sql, SqlMode mode) {
        TokenBuffer tokens = new TokenBuffer();
        new SqlLexer(mode).lex(sql.getBytes(StandardCharsets.UTF_8), tokens);
        StatementDigest digest = new StatementDigest();
        digest.compute(tokens);
        return new SlotValues(tokens, digest);
    }

    @Test
    void integers() {
        SlotValues v = values("SELECT 42, 9223372036854775807, 9223372036854775808, 18446744073709551615");
        assertThat(v.asLong(0)).isEqualTo(42);
        assertThat(v.asLong(1)).isEqualTo(Long.MAX_VALUE);
        assertThat(v.isLong(2)).isFalse();
        assertThatThrownBy(() -> v.asLong(2)).isInstanceOf(ArithmeticException.class);
        assertThat(v.asBigDecimal(3)).isEqualTo(new BigDecimal("18446744073709551615"));
    }

    @Test
    void negativeNumbersAreUnaryMinusAndAPositiveSlot() {
        SlotValues v = values("SELECT -5");
        assertThat(v.count()).isEqualTo(1);
        assertThat(v.asLong(0)).isEqualTo(5);
    }

    @Test
    void decimalsAndFloats() {
        SlotValues v = values("SELECT 12.50, 1.5e3, 3.0, .25");
        assertThat(v.type(0)).isEqualTo(TokenType.DECIMAL);
        assertThat(v.asBigDecimal(0)).isEqualTo(new BigDecimal("12.50"));
        assertThat(v.isLong(0)).isFalse();
        assertThat(v.asDouble(1)).isEqualTo(1500.0);
        assertThat(v.asLong(2)).isEqualTo(3);
        assertThat(v.asDouble(3)).isEqualTo(0.25);
    }

    @Test
    void stringsWithEscapes() {
        SlotValues v = values("SELECT 'it''s', 'a\\nb\\\\c\\'d\\%', \"q\"\"q\", 'plain', 'con' 'cat'");
        assertThat(v.asString(0)).isEqualTo("it's");
        assertThat(v.asString(1)).isEqualTo("a\nb\\c'd\\%");
        assertThat(v.asString(2)).isEqualTo("q\"q");
        assertThat(v.asString(3)).isEqualTo("plain");
        assertThat(v.asString(4)).isEqualTo("concat");
        assertThat(v.originalText(4)).isEqualTo("'con' 'cat'");
    }

    @Test
    void noBackslashEscapesKeepsBackslashes() {
        SlotValues v = values("SELECT 'a\\nb'", new SqlMode(false, true));
        assertThat(v.asString(0)).isEqualTo("a\\nb");
    }

    @Test
    void introducers() {
        SlotValues v = values("SELECT _utf8mb4'héllo', _latin1 'x', N'n', 'plain', _binary X'4142'");
        assertThat(v.introducer(0)).isEqualTo("utf8mb4");
        assertThat(v.asString(0)).isEqualTo("héllo");
        assertThat(v.introducer(1)).isEqualTo("latin1");
        assertThat(v.introducer(2)).isEqualTo("utf8mb3");
        assertThat(v.introducer(3)).isNull();
        assertThat(v.introducer(4)).isEqualTo("binary");
        assertThat(v.asBytes(4)).containsExactly(0x41, 0x42);
    }

    @Test
    void hexAndBits() {
        SlotValues v = values("SELECT X'0aFF', 0xABC, b'101', 0b100000001, 0x7FFFFFFFFFFFFFFF, 0xFFFFFFFFFFFFFFFF");
        assertThat(v.asBytes(0)).containsExactly(0x0A, 0xFF);
        assertThat(v.asBytes(1)).containsExactly(0x0A, 0xBC);
        assertThat(v.asLong(1)).isEqualTo(0xABC);
        assertThat(v.asBytes(2)).containsExactly(5);
        assertThat(v.asBytes(3)).containsExactly(1, 1);
        assertThat(v.asLong(4)).isEqualTo(Long.MAX_VALUE);
        assertThat(v.isLong(5)).isFalse();
    }

    @Test
    void stringsHoldingNumbers() {
        SlotValues v = values("SELECT ' 17 ', 'x'");
        assertThat(v.asLong(0)).isEqualTo(17);
        assertThat(v.isLong(1)).isFalse();
    }

    @Test
    void byteSpansForSplicing() {
        String sql = "SELECT a FROM t LIMIT 10, 20";
        SlotValues v = values(sql);
        assertThat(sql.substring(v.byteStart(0), v.byteEnd(0))).isEqualTo("10");
        assertThat(sql.substring(v.byteStart(1), v.byteEnd(1))).isEqualTo("20");
    }

    @Test
    void placeholdersHaveNoLiteralValue() {
        SlotValues v = values("SELECT ? , 1 , ?");
        assertThat(v.parameterIndex(0)).isEqualTo(0);
        assertThat(v.parameterIndex(2)).isEqualTo(1);
        assertThatThrownBy(() -> v.asLong(0)).isInstanceOf(IllegalStateException.class);
        assertThat(v.asLong(1)).isEqualTo(1);
    }
}
