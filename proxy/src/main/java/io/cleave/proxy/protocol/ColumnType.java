package io.cleave.proxy.protocol;

/** Column and parameter types (enum_field_types) and how each travels in the binary protocol. */
public enum ColumnType {
    DECIMAL(0x00, -1),
    TINY(0x01, 1),
    SHORT(0x02, 2),
    LONG(0x03, 4),
    FLOAT(0x04, 4),
    DOUBLE(0x05, 8),
    NULL(0x06, 0),
    TIMESTAMP(0x07, -2),
    LONGLONG(0x08, 8),
    INT24(0x09, 4),
    DATE(0x0a, -2),
    TIME(0x0b, -2),
    DATETIME(0x0c, -2),
    YEAR(0x0d, 2),
    NEWDATE(0x0e, -2),
    VARCHAR(0x0f, -1),
    BIT(0x10, -1),
    TIMESTAMP2(0x11, -2),
    DATETIME2(0x12, -2),
    TIME2(0x13, -2),
    VECTOR(0xf2, -1),
    JSON(0xf5, -1),
    NEWDECIMAL(0xf6, -1),
    ENUM(0xf7, -1),
    SET(0xf8, -1),
    TINY_BLOB(0xf9, -1),
    MEDIUM_BLOB(0xfa, -1),
    LONG_BLOB(0xfb, -1),
    BLOB(0xfc, -1),
    VAR_STRING(0xfd, -1),
    STRING(0xfe, -1),
    GEOMETRY(0xff, -1);

    private static final ColumnType[] BY_CODE = new ColumnType[256];

    static {
        for (ColumnType t : values()) {
            BY_CODE[t.code] = t;
        }
    }

    private final int code;
    /** Fixed binary size in bytes; -1 = length-encoded string; -2 = 1-byte length prefix (temporal). */
    private final int binarySize;

    ColumnType(int code, int binarySize) {
        this.code = code;
        this.binarySize = binarySize;
    }

    public int code() {
        return code;
    }

    public static ColumnType of(int code) {
        ColumnType t = BY_CODE[code & 0xff];
        if (t == null) {
            throw new MalformedPacketException("unknown column type 0x" + Integer.toHexString(code));
        }
        return t;
    }

    public boolean isInteger() {
        return this == TINY || this == SHORT || this == LONG || this == LONGLONG || this == INT24 || this == YEAR;
    }

    public boolean isFloatingPoint() {
        return this == FLOAT || this == DOUBLE;
    }

    public boolean isDecimal() {
        return this == DECIMAL || this == NEWDECIMAL;
    }

    public boolean isTemporal() {
        return binarySize == -2;
    }

    public boolean isLengthEncoded() {
        return binarySize == -1;
    }

    /** Bytes a binary-protocol value of this type takes at {@code offset} of {@code buf}. */
    public int binaryLength(io.netty.buffer.ByteBuf buf, int offset) {
        if (binarySize >= 0) {
            return binarySize;
        }
        if (binarySize == -2) {
            return 1 + buf.getUnsignedByte(offset);
        }
        int first = buf.getUnsignedByte(offset);
        if (first < 0xfb) {
            return 1 + first;
        }
        switch (first) {
            case 0xfc:
                return 3 + buf.getUnsignedShortLE(offset + 1);
            case 0xfd:
                return 4 + buf.getUnsignedMediumLE(offset + 1);
            case 0xfe:
                long length = buf.getLongLE(offset + 1);
                if (length < 0 || length > Integer.MAX_VALUE - 9) {
                    throw new MalformedPacketException("parameter value of " + length + " bytes");
                }
                return 9 + (int) length;
            default:
                throw new MalformedPacketException("invalid length prefix 0x" + Integer.toHexString(first));
        }
    }
}
