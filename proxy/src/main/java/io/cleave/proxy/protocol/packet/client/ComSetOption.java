package io.cleave.proxy.protocol.packet.client;

import io.cleave.proxy.protocol.MalformedPacketException;
import io.netty.buffer.ByteBuf;

/** COM_SET_OPTION: turn multi-statement support on or off for the session. */
public record ComSetOption(boolean multiStatements) {

    public static final int MULTI_STATEMENTS_ON = 0;
    public static final int MULTI_STATEMENTS_OFF = 1;

    public static ComSetOption decode(ByteBuf in) {
        in.skipBytes(1);
        int option = in.readUnsignedShortLE();
        if (option != MULTI_STATEMENTS_ON && option != MULTI_STATEMENTS_OFF) {
            throw new MalformedPacketException("unknown COM_SET_OPTION value " + option);
        }
        return new ComSetOption(option == MULTI_STATEMENTS_ON);
    }

    public void write(ByteBuf out) {
        out.writeByte(CommandCode.SET_OPTION.code());
        out.writeShortLE(multiStatements ? MULTI_STATEMENTS_ON : MULTI_STATEMENTS_OFF);
    }
}
