package io.cleave.proxy.protocol.packet.client;

import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/** COM_FIELD_LIST (deprecated but still sent by old clients): columns of a table. */
public record ComFieldList(String table, String wildcard) {

    public static ComFieldList decode(ByteBuf in) {
        in.skipBytes(1);
        String table = Wire.readNulString(in, StandardCharsets.UTF_8);
        return new ComFieldList(table, Wire.readRestString(in));
    }
}
