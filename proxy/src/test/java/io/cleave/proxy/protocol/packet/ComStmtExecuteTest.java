package io.cleave.proxy.protocol.packet;

import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.Hex;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.packet.client.ComStmtExecute;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ComStmtExecuteTest {

    // Statement 1, no cursor, 1 iteration; 3 params: LONGLONG 42, VAR_STRING 'abc', NULL (bit 2 of the bitmap).
    private static final String EXECUTE = "17 01000000 00 01000000 04 01 0800 fd00 0600"
            + " 2a00000000000000 03616263";

    @Test
    void locatesEveryValue() {
        ByteBuf payload = Hex.payload(EXECUTE);
        ComStmtExecute e = ComStmtExecute.parse(payload, 3, null, null);
        assertThat(e.statementId()).isEqualTo(1);
        assertThat(e.opensCursor()).isFalse();
        assertThat(e.newParamsBound()).isTrue();
        assertThat(e.type(0)).isEqualTo(ColumnType.LONGLONG);
        assertThat(e.type(1)).isEqualTo(ColumnType.VAR_STRING);
        assertThat(e.isNull(2)).isTrue();
        assertThat(payload.getLongLE(e.valueOffset(0))).isEqualTo(42);
        assertThat(e.valueLength(1)).isEqualTo(4);
        assertThat(payload.getByte(e.valueOffset(1) + 1)).isEqualTo((byte) 'a');
    }

    @Test
    void reusesPreviousTypesWhenNotRebound() {
        ComStmtExecute first = ComStmtExecute.parse(Hex.payload(EXECUTE), 3, null, null);
        ByteBuf second = Hex.payload("17 01000000 00 01000000 00 00 0700000000000000 0178");
        assertThatThrownBy(() -> ComStmtExecute.parse(second.duplicate(), 3, null, null))
                .isInstanceOf(MalformedPacketException.class);
        ComStmtExecute e = ComStmtExecute.parse(second, 3, first.types(), null);
        assertThat(e.newParamsBound()).isFalse();
        assertThat(second.getLongLE(e.valueOffset(0))).isEqualTo(7);
        assertThat(e.valueLength(1)).isEqualTo(2);
        // The third parameter keeps the NULL type it was bound with.
        assertThat(e.isNull(2)).isTrue();
    }

    @Test
    void truncatedValueIsMalformed() {
        assertThatThrownBy(() -> ComStmtExecute.parse(Hex.payload("17 01000000 00 01000000 00 01 0800 2a00"), 1,
                null, null)).isInstanceOf(MalformedPacketException.class).hasMessageContaining("overruns");
    }

    @Test
    void longDataParametersAreNotInThePacket() {
        ComStmtExecute e = ComStmtExecute.parse(Hex.payload("17 01000000 00 01000000 00 01 fc00 0300 05000000"),
                2, null, new boolean[] {true, false});
        assertThat(e.isNull(0)).isTrue();
        assertThat(e.type(1)).isEqualTo(ColumnType.LONG);
    }
}
