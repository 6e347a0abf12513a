package io.cleave.proxy.protocol.packet.client;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** COM_CHANGE_USER: re-authenticate as another user and reset the session. */
public record ComChangeUser(String username, byte[] authResponse, String database, int collationId,
                            String authPluginName, Map<String, String> attributes) {

    /** Writes the packet as a client with {@code caps} (SECURE_CONNECTION, PLUGIN_AUTH, CONNECT_ATTRS as agreed). */
    public void write(ByteBuf out, Capabilities caps) {
        out.writeByte(CommandCode.CHANGE_USER.code());
        Wire.writeNulString(out, username);
        if (caps.secureConnection()) {
            out.writeByte(authResponse.length);
            out.writeBytes(authResponse);
        } else {
            Wire.writeNulBytes(out, authResponse);
        }
        Wire.writeNulString(out, database == null ? "" : database);
        out.writeShortLE(collationId);
        if (caps.pluginAuth()) {
            Wire.writeNulString(out, authPluginName);
        }
        if (caps.connectAttrs()) {
            ByteBuf attrs = out.alloc().buffer();
            try {
                for (Map.Entry<String, String> e : attributes.entrySet()) {
                    Wire.writeLenencString(attrs, e.getKey());
                    Wire.writeLenencString(attrs, e.getValue());
                }
                Wire.writeLenencInt(out, attrs.readableBytes());
                out.writeBytes(attrs);
            } finally {
                attrs.release();
            }
        }
    }

    public static ComChangeUser decode(ByteBuf in, Capabilities caps) {
        in.skipBytes(1);
        String user = Wire.readNulString(in, StandardCharsets.UTF_8);
        byte[] auth = caps.secureConnection() ? Wire.readBytes(in, in.readUnsignedByte()) : Wire.readNulBytes(in);
        String db = Wire.readNulString(in, StandardCharsets.UTF_8);
        int collation = 0;
        String plugin = null;
        Map<String, String> attrs = new LinkedHashMap<>();
        if (in.readableBytes() >= 2) {
            collation = in.readUnsignedShortLE();
        }
        if (caps.pluginAuth() && in.isReadable()) {
            plugin = Wire.readNulString(in);
        }
        if (caps.connectAttrs() && in.isReadable()) {
            long total = Wire.readLenencInt(in);
            ByteBuf slice = in.readSlice((int) Math.min(total, in.readableBytes()));
            while (slice.isReadable()) {
                attrs.put(Wire.readLenencString(slice), Wire.readLenencString(slice));
            }
        }
        return new ComChangeUser(user, auth, db.isEmpty() ? null : db, collation, plugin, attrs);
    }
}
