package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.Frames;
import io.netty.buffer.ByteBuf;

/** Rewrites of COM_STMT_EXECUTE frames for a backend connection. */
final class ExecutePackets {

    private ExecutePackets() {
    }

    /**
     * The same execute, for statement {@code backendId}, with the parameter types included: a
     * backend statement that has not seen the client's last types must get them, although the
     * client (which talked to another connection before) did not resend them.
     */
    static ByteBuf withTypes(ByteBuf payload, int paramCount, short[] types, long backendId) {
        int base = payload.readerIndex();
        int bitmap = (paramCount + 7) / 8;
        int boundFlagAt = base + 10 + bitmap;
        int valuesAt = boundFlagAt + 1;
        int valuesLength = payload.writerIndex() - valuesAt;
        ByteBuf out = Frames.begin(payload.alloc(), payload.readableBytes() + 2 * paramCount);
        out.writeBytes(payload, base, 10 + bitmap);
        out.setIntLE(Frames.HEADER_SIZE + 1, (int) backendId);
        out.writeByte(1);
        for (short t : types) {
            out.writeShortLE(t);
        }
        out.writeBytes(payload, valuesAt, valuesLength);
        return Frames.finish(out, 0);
    }

    /** A COM_STMT_SEND_LONG_DATA frame for {@code backendId}. */
    static ByteBuf longData(io.netty.buffer.ByteBufAllocator alloc, long backendId, int param, ByteBuf data) {
        ByteBuf out = Frames.begin(alloc, 7 + data.readableBytes());
        out.writeByte(io.cleave.proxy.protocol.packet.client.CommandCode.STMT_SEND_LONG_DATA.code());
        out.writeIntLE((int) backendId);
        out.writeShortLE(param);
        out.writeBytes(data, data.readerIndex(), data.readableBytes());
        return Frames.finish(out, 0);
    }
}
