package io.cleave.proxy.protocol.packet.server;

import io.netty.buffer.ByteBuf;

/** First packet of a successful COM_STMT_PREPARE response. */
public record StmtPrepareOk(long statementId, int columnCount, int paramCount, int warnings) {

    public void write(ByteBuf out) {
        out.writeByte(0);
        out.writeIntLE((int) statementId);
        out.writeShortLE(columnCount);
        out.writeShortLE(paramCount);
        out.writeByte(0);
        out.writeShortLE(warnings);
    }

    public static StmtPrepareOk decode(ByteBuf in) {
        in.skipBytes(1);
        long id = in.readUnsignedIntLE();
        int columns = in.readUnsignedShortLE();
        int params = in.readUnsignedShortLE();
        int warnings = 0;
        if (in.readableBytes() >= 3) {
            in.skipBytes(1);
            warnings = in.readUnsignedShortLE();
        }
        return new StmtPrepareOk(id, columns, params, warnings);
    }
}
