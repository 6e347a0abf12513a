package io.cleave.proxy.merge;

import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.Hex;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class BinaryRowEncoderTest {

    private static ResultColumn col(ColumnType type, int flags) {
        return new ResultColumn(new ColumnDefinition41("", "", "", "c", "c", 63, 10, type.code(), flags, 0), null);
    }

    private static TextRow row(String... values) {
        byte[][] bytes = new byte[values.length][];
        for (int i = 0; i < values.length; i++) {
            bytes[i] = values[i] == null ? null : values[i].getBytes(StandardCharsets.UTF_8);
        }
        return TextRow.of(bytes);
    }

    @Test
    void encodesEachTypeAsTheBinaryProtocolWants() {
        List<ResultColumn> columns = List.of(col(ColumnType.LONGLONG, 0), col(ColumnType.LONG, 0),
                col(ColumnType.VAR_STRING, 0), col(ColumnType.DOUBLE, 0), col(ColumnType.DATETIME, 0),
                col(ColumnType.TIME, 0), col(ColumnType.NEWDECIMAL, 0), col(ColumnType.DATE, 0));
        ByteBuf out = Unpooled.buffer();
        BinaryRowEncoder.write(out, row("-2", null, "ab", "0.5", "2024-02-29 13:14:15.000250", "-26:00:01",
                "1.50", "2024-02-29"), columns, 8);
        assertThat(Hex.of(out)).isEqualTo("00" + "0800" // header; NULL bitmap: column 1 -> bit 1 + 2
                + "feffffffffffffff" // -2
                + "026162" // 'ab'
                + "000000000000e03f" // 0.5
                + "0b" + "e807" + "02" + "1d" + "0d" + "0e" + "0f" + "fa000000" // datetime with micros
                + "08" + "01" + "01000000" + "02" + "00" + "01" // -1 day 2:00:01
                + "04312e3530" // decimal as text
                + "04" + "e807" + "02" + "1d"); // date
    }

    @Test
    void unsignedBigintBeyondLongRange() {
        ByteBuf out = Unpooled.buffer();
        BinaryRowEncoder.write(out, row("18446744073709551615"), List.of(col(ColumnType.LONGLONG, 32)), 1);
        assertThat(Hex.of(out)).isEqualTo("0000ffffffffffffffff");
    }
}
