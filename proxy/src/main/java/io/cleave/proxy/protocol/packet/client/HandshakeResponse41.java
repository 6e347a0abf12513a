package io.cleave.proxy.protocol.packet.client;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/** The client's answer to the handshake (Protocol::HandshakeResponse41). */
public record HandshakeResponse41(Capabilities capabilities, long maxPacketSize, int collationId, String username,
                                  byte[] authResponse, String database, String authPluginName,
                                  Map<String, String> attributes) {

    /** Length of the fixed part, which is also the whole SSLRequest packet. */
    public static final int FIXED_PART = 32;

    public void write(ByteBuf out) {
        Capabilities caps = capabilities;
        out.writeIntLE((int) caps.flags());
        out.writeIntLE((int) maxPacketSize);
        out.writeByte(collationId);
        out.writeZero(23);
        Wire.writeNulString(out, username);
        if (caps.pluginAuthLenencData()) {
            Wire.writeLenencBytes(out, authResponse);
        } else if (caps.secureConnection()) {
            out.writeByte(authResponse.length);
            out.writeBytes(authResponse);
        } else {
            Wire.writeNulBytes(out, authResponse);
        }
        if (caps.connectWithDb()) {
            Wire.writeNulString(out, database == null ? "" : database);
        }
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

    /** Decodes a response; {@code payload} may also be a bare SSLRequest, see {@link #isSslRequest}. */
    public static HandshakeResponse41 decode(ByteBuf in) {
        Capabilities caps = new Capabilities(in.readUnsignedIntLE());
        if (!caps.protocol41()) {
            throw new MalformedPacketException("client does not speak protocol 4.1");
        }
        long maxPacket = in.readUnsignedIntLE();
        int collation = in.readUnsignedByte();
        in.skipBytes(23);
        String user = Wire.readNulString(in, StandardCharsets.UTF_8);
        byte[] auth;
        if (caps.pluginAuthLenencData()) {
            auth = Wire.readLenencBytes(in);
        } else if (caps.secureConnection()) {
            auth = Wire.readBytes(in, in.readUnsignedByte());
        } else {
            auth = Wire.readNulBytes(in);
        }
        String database = null;
        if (caps.connectWithDb() && in.isReadable()) {
            database = Wire.readNulString(in, StandardCharsets.UTF_8);
            if (database.isEmpty()) {
                database = null;
            }
        }
        String plugin = null;
        if (caps.pluginAuth() && in.isReadable()) {
            plugin = Wire.readNulString(in);
        }
        Map<String, String> attrs = new LinkedHashMap<>();
        if (caps.connectAttrs() && in.isReadable()) {
            long total = Wire.readLenencInt(in);
            if (total > in.readableBytes()) {
                throw new MalformedPacketException("connection attributes overrun the packet");
            }
            ByteBuf slice = in.readSlice((int) total);
            while (slice.isReadable()) {
                String key = Wire.readLenencString(slice);
                String value = Wire.readLenencString(slice);
                attrs.put(key, value);
            }
        }
        return new HandshakeResponse41(caps, maxPacket, collation, user, auth, database, plugin, attrs);
    }

    public static boolean isSslRequest(ByteBuf payload) {
        return payload.readableBytes() == FIXED_PART
                && (payload.getUnsignedIntLE(payload.readerIndex()) & Capabilities.SSL) != 0;
    }

    /** Writes the SSLRequest: the fixed part of a response whose capabilities include SSL. */
    public static void writeSslRequest(ByteBuf out, Capabilities caps, long maxPacketSize, int collationId) {
        out.writeIntLE((int) caps.with(Capabilities.SSL).flags());
        out.writeIntLE((int) maxPacketSize);
        out.writeByte(collationId);
        out.writeZero(23);
    }
}
