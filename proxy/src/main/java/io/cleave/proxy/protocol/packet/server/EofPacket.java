package io.cleave.proxy.protocol.packet.server;

import io.netty.buffer.ByteBuf;

/** The classic EOF packet (clients without DEPRECATE_EOF). */
public record EofPacket(int warnings, int statusFlags) {

    public static final int HEADER = 0xfe;

    public void write(ByteBuf out) {
        out.writeByte(HEADER);
        out.writeShortLE(warnings);
        out.writeShortLE(statusFlags);
    }

    public static EofPacket decode(ByteBuf in) {
        in.skipBytes(1);
        if (in.readableBytes() < 4) {
            return new EofPacket(0, 0);
        }
        int warnings = in.readUnsignedShortLE();
        return new EofPacket(warnings, in.readUnsignedShortLE());
    }
}
