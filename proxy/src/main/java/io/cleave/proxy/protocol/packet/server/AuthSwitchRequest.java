package io.cleave.proxy.protocol.packet.server;

import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;

/** Asks the client to authenticate again with another plugin and a new scramble. */
public record AuthSwitchRequest(String pluginName, byte[] pluginData) {

    public static final int HEADER = 0xfe;

    public void write(ByteBuf out) {
        out.writeByte(HEADER);
        Wire.writeNulString(out, pluginName);
        out.writeBytes(pluginData);
        // Like the server, terminate the scramble with NUL.
        out.writeByte(0);
    }

    public static AuthSwitchRequest decode(ByteBuf in) {
        in.skipBytes(1);
        String plugin = Wire.readNulString(in);
        byte[] data = Wire.readRestBytes(in);
        if (data.length > 0 && data[data.length - 1] == 0) {
            data = java.util.Arrays.copyOf(data, data.length - 1);
        }
        return new AuthSwitchRequest(plugin, data);
    }
}
