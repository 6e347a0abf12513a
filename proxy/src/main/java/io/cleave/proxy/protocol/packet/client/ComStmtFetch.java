package io.cleave.proxy.protocol.packet.client;

import io.netty.buffer.ByteBuf;

/** COM_STMT_FETCH: read rows from an open cursor. */
public record ComStmtFetch(long statementId, long rows) {

    public static ComStmtFetch decode(ByteBuf in) {
        in.skipBytes(1);
        return new ComStmtFetch(in.readUnsignedIntLE(), in.readUnsignedIntLE());
    }

    public void write(ByteBuf out) {
        out.writeByte(CommandCode.STMT_FETCH.code());
        out.writeIntLE((int) statementId);
        out.writeIntLE((int) rows);
    }
}
