package io.cleave.proxy.merge;

import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;

/** A column of a shard's result set: its definition as decoded, and as the bytes to send on. */
public final class ResultColumn {

    private static final int ENUM_FLAG = 256;
    private static final int SET_FLAG = 2048;
    private static final int BINARY_COLLATION = 63;

    private final ColumnDefinition41 definition;
    private final byte[] raw;
    private final ColumnType type;

    public ResultColumn(ColumnDefinition41 definition, byte[] raw) {
        this.definition = definition;
        this.raw = raw;
        this.type = ColumnType.of(definition.type());
    }

    public ColumnDefinition41 definition() {
        return definition;
    }

    /** The definition packet's payload exactly as the shard sent it. */
    public byte[] raw() {
        return raw;
    }

    public ColumnType type() {
        return type;
    }

    public boolean unsigned() {
        return definition.unsigned();
    }

    /** Character data compared by collation (not binary strings, which compare byte by byte). */
    public boolean isCollatedString() {
        return isStringType() && definition.collationId() != BINARY_COLLATION;
    }

    public boolean isStringType() {
        switch (type) {
            case VARCHAR:
            case VAR_STRING:
            case STRING:
            case TINY_BLOB:
            case MEDIUM_BLOB:
            case LONG_BLOB:
            case BLOB:
                return !isEnumOrSet();
            default:
                return false;
        }
    }

    /** ENUM and SET sort by their index, not their text: a merge cannot order them from text. */
    public boolean isEnumOrSet() {
        return type == ColumnType.ENUM || type == ColumnType.SET
                || (definition.flags() & (ENUM_FLAG | SET_FLAG)) != 0;
    }

    public String name() {
        return definition.name();
    }
}
