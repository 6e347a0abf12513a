package io.cleave.proxy.protocol.packet.server;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/**
 * Initial handshake, server to client. {@code authPluginData} is the whole scramble (20 bytes for
 * both mysql_native_password and caching_sha2_password), sent in two parts on the wire.
 */
public record HandshakeV10(String serverVersion, long connectionId, byte[] authPluginData,
                           Capabilities capabilities, int collationId, int statusFlags, String authPluginName) {

    public static final int PROTOCOL_VERSION = 10;

    public void write(ByteBuf out) {
        out.writeByte(PROTOCOL_VERSION);
        Wire.writeNulString(out, serverVersion);
        out.writeIntLE((int) connectionId);
        out.writeBytes(authPluginData, 0, 8);
        out.writeByte(0);
        out.writeShortLE(capabilities.lower16());
        out.writeByte(collationId);
        out.writeShortLE(statusFlags);
        out.writeShortLE(capabilities.upper16());
        out.writeByte(capabilities.pluginAuth() ? authPluginData.length + 1 : 0);
        out.writeZero(10);
        if (capabilities.secureConnection()) {
            // Part 2 is at least 13 bytes, NUL-terminated.
            out.writeBytes(authPluginData, 8, authPluginData.length - 8);
            out.writeByte(0);
        }
        if (capabilities.pluginAuth()) {
            Wire.writeNulString(out, authPluginName);
        }
    }

    public static HandshakeV10 decode(ByteBuf in) {
        int protocol = in.readUnsignedByte();
        if (protocol != PROTOCOL_VERSION) {
            throw new MalformedPacketException("unsupported handshake protocol version " + protocol);
        }
        String version = Wire.readNulString(in, StandardCharsets.UTF_8);
        long connectionId = in.readUnsignedIntLE();
        byte[] part1 = Wire.readBytes(in, 8);
        in.skipBytes(1);
        int capsLow = in.readUnsignedShortLE();
        int collation = 0;
        int status = 0;
        int capsHigh = 0;
        int authDataLength = 0;
        if (in.isReadable()) {
            collation = in.readUnsignedByte();
            status = in.readUnsignedShortLE();
            capsHigh = in.readUnsignedShortLE();
            authDataLength = in.readUnsignedByte();
            in.skipBytes(10);
        }
        Capabilities caps = new Capabilities(((long) capsHigh << 16) | capsLow);
        byte[] data = part1;
        if (caps.secureConnection()) {
            int part2Length = Math.max(13, authDataLength - 8);
            byte[] part2 = Wire.readBytes(in, Math.min(part2Length, in.readableBytes()));
            int usable = part2.length;
            if (usable > 0 && part2[usable - 1] == 0) {
                usable--;
            }
            data = new byte[8 + usable];
            System.arraycopy(part1, 0, data, 0, 8);
            System.arraycopy(part2, 0, data, 8, usable);
        }
        String plugin = "mysql_native_password";
        if (caps.pluginAuth() && in.isReadable()) {
            plugin = in.indexOf(in.readerIndex(), in.writerIndex(), (byte) 0) >= 0
                    ? Wire.readNulString(in) : Wire.readRestString(in);
        }
        return new HandshakeV10(version, connectionId, data, caps, collation, status, plugin);
    }
}
