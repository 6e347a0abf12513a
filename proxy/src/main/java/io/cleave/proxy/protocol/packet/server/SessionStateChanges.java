package io.cleave.proxy.protocol.packet.server;

import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.nio.charset.StandardCharsets;

/**
 * The session state changes an OK packet reports to a client with SESSION_TRACK (the
 * Session_track part of Protocol::OK_Packet): a list of entries, each a type byte and its
 * length-encoded data. Drivers follow the current schema through them (MariaDB Connector/J
 * answers getCatalog() from it), so answers the proxy makes itself must carry what a server would.
 */
public final class SessionStateChanges {

    /** SESSION_TRACK_SYSTEM_VARIABLES: a variable's name and new value. */
    public static final int SYSTEM_VARIABLES = 0x00;
    /** SESSION_TRACK_SCHEMA: the new current schema. */
    public static final int SCHEMA = 0x01;

    private final ByteBuf entries = Unpooled.buffer(32);

    /** The current schema changed to {@code schema}. */
    public SessionStateChanges schema(String schema) {
        byte[] name = schema.getBytes(StandardCharsets.UTF_8);
        entries.writeByte(SCHEMA);
        Wire.writeLenencInt(entries, Wire.lenencIntSize(name.length) + name.length);
        Wire.writeLenencBytes(entries, name);
        return this;
    }

    /** A tracked system variable now has {@code value}. */
    public SessionStateChanges systemVariable(String name, String value) {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        byte[] v = value.getBytes(StandardCharsets.UTF_8);
        entries.writeByte(SYSTEM_VARIABLES);
        Wire.writeLenencInt(entries, Wire.lenencIntSize(n.length) + n.length + Wire.lenencIntSize(v.length) + v.length);
        Wire.writeLenencBytes(entries, n);
        Wire.writeLenencBytes(entries, v);
        return this;
    }

    public byte[] toBytes() {
        byte[] out = new byte[entries.readableBytes()];
        entries.getBytes(entries.readerIndex(), out);
        return out;
    }
}
