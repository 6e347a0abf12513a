package io.cleave.proxy.protocol.packet.server;

import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/** ERR packet: error code, SQLSTATE and a message. */
public record ErrPacket(int errorCode, String sqlState, String message) {

    public static final int HEADER = 0xff;

    public void write(ByteBuf out) {
        out.writeByte(HEADER);
        out.writeShortLE(errorCode);
        out.writeByte('#');
        out.writeBytes(sqlState.getBytes(StandardCharsets.US_ASCII), 0, 5);
        out.writeBytes(message.getBytes(StandardCharsets.UTF_8));
    }

    public static ErrPacket decode(ByteBuf in) {
        in.skipBytes(1);
        int code = in.readUnsignedShortLE();
        String state = "HY000";
        if (in.isReadable() && in.getByte(in.readerIndex()) == '#') {
            in.skipBytes(1);
            state = in.readCharSequence(5, StandardCharsets.US_ASCII).toString();
        }
        return new ErrPacket(code, state, Wire.readRestString(in));
    }
}
