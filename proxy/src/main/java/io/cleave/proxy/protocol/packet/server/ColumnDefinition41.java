package io.cleave.proxy.protocol.packet.server;

import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/** A result set column's metadata (Protocol::ColumnDefinition41). */
public record ColumnDefinition41(String schema, String table, String orgTable, String name, String orgName,
                                 int collationId, long columnLength, int type, int flags, int decimals) {

    public static final int FLAG_NOT_NULL = 1;
    public static final int FLAG_PRIMARY_KEY = 2;
    public static final int FLAG_UNSIGNED = 32;
    public static final int FLAG_BINARY = 128;
    public static final int FLAG_NUM = 32768;

    public boolean unsigned() {
        return (flags & FLAG_UNSIGNED) != 0;
    }

    public ColumnDefinition41 withName(String newName) {
        return new ColumnDefinition41(schema, table, orgTable, newName, orgName, collationId, columnLength, type,
                flags, decimals);
    }

    public ColumnDefinition41 withType(int newType, long newLength, int newFlags, int newDecimals) {
        return new ColumnDefinition41(schema, table, orgTable, name, orgName, collationId, newLength, newType,
                newFlags, newDecimals);
    }

    public void write(ByteBuf out) {
        Wire.writeLenencString(out, "def");
        Wire.writeLenencString(out, schema);
        Wire.writeLenencString(out, table);
        Wire.writeLenencString(out, orgTable);
        Wire.writeLenencString(out, name);
        Wire.writeLenencString(out, orgName);
        out.writeByte(0x0c);
        out.writeShortLE(collationId);
        out.writeIntLE((int) columnLength);
        out.writeByte(type);
        out.writeShortLE(flags);
        out.writeByte(decimals);
        out.writeZero(2);
    }

    public static ColumnDefinition41 decode(ByteBuf in) {
        Wire.skipLenencString(in);
        String schema = Wire.readLenencString(in, StandardCharsets.UTF_8);
        String table = Wire.readLenencString(in, StandardCharsets.UTF_8);
        String orgTable = Wire.readLenencString(in, StandardCharsets.UTF_8);
        String name = Wire.readLenencString(in, StandardCharsets.UTF_8);
        String orgName = Wire.readLenencString(in, StandardCharsets.UTF_8);
        Wire.readLenencInt(in);
        int collation = in.readUnsignedShortLE();
        long length = in.readUnsignedIntLE();
        int type = in.readUnsignedByte();
        int flags = in.readUnsignedShortLE();
        int decimals = in.readUnsignedByte();
        return new ColumnDefinition41(schema, table, orgTable, name, orgName, collation, length, type, flags, decimals);
    }
}
