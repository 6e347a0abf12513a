package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.PreparedSql;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.packet.client.ComStmtExecute;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A value bound to a key placeholder is read as the server reads it against the key column,
 * whatever type the client bound it as (MariaDB 10.11 and 11.4 compare an INT column with the
 * string ' 470abc' as 470, with '\u2003470' or Arabic-Indic digits as 0, with 470.5 as no integer).
 * A key that cannot be told for sure is null: the statement then goes to every shard.
 */
class BoundParametersTest {

    @ParameterizedTest(name = "[{0}] -> {1}")
    @CsvSource(delimiter = '|', value = {
            "470|470",
            "' 470'|470",
            "'\t470 '|470",
            "470abc|470",
            "4.7e2|470",
            "+470.0|470",
            "470e|470",
            "abc|0",
            "''|0",
            "0x1D6|0",
            "470.5|",
            "4.7e|",
            "1e400|",
            "9007199254740993|9007199254740993",
            "9007199254740993abc|",
    })
    void aStringBoundToAnIntegerKeyIsTheNumberItSpells(String value, Long key) {
        assertThat(key(ColumnType.VARCHAR, value.getBytes(StandardCharsets.UTF_8), KeyType.INTEGER))
                .isEqualTo(key == null ? null : ShardKey.of(key));
    }

    @Test
    void spacesAndDigitsOutsideAsciiAreNoNumberToTheServer() {
        // Java's strip() and BigDecimal take them; the server reads both strings as 0.
        assertThat(key(ColumnType.VAR_STRING, "\u2003470".getBytes(StandardCharsets.UTF_8), KeyType.INTEGER))
                .isEqualTo(ShardKey.of(0));
        assertThat(key(ColumnType.VAR_STRING, "\u0664\u0667\u0660".getBytes(StandardCharsets.UTF_8), KeyType.INTEGER))
                .isEqualTo(ShardKey.of(0));
        assertThat(key(ColumnType.STRING, "\u001c470".getBytes(StandardCharsets.UTF_8), KeyType.INTEGER))
                .isEqualTo(ShardKey.of(0));
    }

    @Test
    void aDoubleIsAKeyOnlyAsAWholeNumberBelowTwoToThe53() {
        assertThat(key(ColumnType.DOUBLE, doubleBytes(470.0), KeyType.INTEGER)).isEqualTo(ShardKey.of(470));
        assertThat(key(ColumnType.DOUBLE, doubleBytes(470.5), KeyType.INTEGER)).isNull();
        // MySQL compares an integer column with it as a double: 2^53 + 1 equals it too.
        assertThat(key(ColumnType.DOUBLE, doubleBytes(0x1p53), KeyType.INTEGER)).isNull();
        assertThat(key(ColumnType.FLOAT, floatBytes(470f), KeyType.INTEGER)).isEqualTo(ShardKey.of(470));
    }

    @Test
    void binaryDataIsABinaryString() {
        assertThat(key(ColumnType.BLOB, "470".getBytes(StandardCharsets.US_ASCII), KeyType.INTEGER))
                .isEqualTo(ShardKey.of(470));
        assertThat(key(ColumnType.BLOB, "ABC".getBytes(StandardCharsets.US_ASCII), KeyType.STRING))
                .isEqualTo(ShardKey.ofString("abc"));
        // Non-ASCII bytes read in the key column's character set, which the proxy does not know.
        assertThat(key(ColumnType.BLOB, new byte[] {(byte) 0xC3, (byte) 0x89}, KeyType.STRING)).isNull();
    }

    @Test
    void aNumberBoundToAStringKeyIsComparedAsANumber() {
        // '470', '470.0' and ' 470' all equal 470 there: no one string key.
        assertThat(key(ColumnType.LONGLONG, longBytes(470), KeyType.STRING)).isNull();
        assertThat(key(ColumnType.DOUBLE, doubleBytes(470), KeyType.STRING)).isNull();
    }

    private static ShardKey key(ColumnType type, byte[] value, KeyType keyType) {
        byte[] encoded = type.isLengthEncoded() ? lenenc(value) : value;
        ByteBuf payload = Unpooled.buffer();
        payload.writeByte(0x17);
        payload.writeIntLE(1);
        payload.writeByte(0);
        payload.writeIntLE(1);
        payload.writeByte(0);
        payload.writeByte(1);
        payload.writeShortLE(type.code());
        payload.writeBytes(encoded);
        ComStmtExecute execute = ComStmtExecute.parse(payload, 1, null, null);
        ClientStatement statement = new ClientStatement(1, new PreparedSql("SELECT ? FROM t".getBytes(
                StandardCharsets.UTF_8)), null);
        statement.prepared(1, 0);
        try {
            return new BoundParameters(execute, payload, statement, StandardCharsets.UTF_8, false).key(0, keyType);
        } finally {
            payload.release();
        }
    }

    private static byte[] lenenc(byte[] value) {
        byte[] out = new byte[value.length + 1];
        out[0] = (byte) value.length;
        System.arraycopy(value, 0, out, 1, value.length);
        return out;
    }

    private static byte[] doubleBytes(double d) {
        return longBytes(Double.doubleToLongBits(d));
    }

    private static byte[] floatBytes(float f) {
        int bits = Float.floatToIntBits(f);
        return new byte[] {(byte) bits, (byte) (bits >> 8), (byte) (bits >> 16), (byte) (bits >> 24)};
    }

    private static byte[] longBytes(long v) {
        byte[] out = new byte[8];
        for (int i = 0; i < 8; i++) {
            out[i] = (byte) (v >>> (8 * i));
        }
        return out;
    }
}
