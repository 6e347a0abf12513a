package io.cleave.proxy.protocol.packet.client;

import io.netty.buffer.ByteBuf;

/** COM_STMT_SEND_LONG_DATA header fields; the data is the rest of the payload. */
public record ComStmtSendLongData(long statementId, int paramId) {

    public static final int DATA_OFFSET = 7;

    public static ComStmtSendLongData decode(ByteBuf in) {
        in.skipBytes(1);
        long id = in.readUnsignedIntLE();
        int param = in.readUnsignedShortLE();
        return new ComStmtSendLongData(id, param);
    }
}
