package io.cleave.proxy.protocol.packet.client;

import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.netty.buffer.ByteBuf;

/**
 * A view of a COM_STMT_EXECUTE payload: where each bound value sits, so the router can read the
 * sharding key and the relay can forward the packet with only the statement id changed. Values
 * are located, not decoded; the payload buffer is not owned by this object.
 *
 * <p>Parameter types are sent only when {@code newParamsBound} is set; otherwise the types of
 * the previous execute apply, which the caller passes in as {@code previousTypes}.
 */
public final class ComStmtExecute {

    public static final int CURSOR_TYPE_NO_CURSOR = 0;
    public static final int CURSOR_TYPE_READ_ONLY = 1;

    private final long statementId;
    private final int flags;
    private final boolean newParamsBound;
    private final int nullBitmapOffset;
    /** Per parameter: type code | (unsigned flag << 8), as sent in the types block. */
    private final short[] types;
    private final int[] valueOffsets;
    private final int[] valueLengths;
    private final int typesOffset;
    private final int valuesOffset;

    private ComStmtExecute(long statementId, int flags, boolean newParamsBound, int nullBitmapOffset, short[] types,
                           int[] valueOffsets, int[] valueLengths, int typesOffset, int valuesOffset) {
        this.statementId = statementId;
        this.flags = flags;
        this.newParamsBound = newParamsBound;
        this.nullBitmapOffset = nullBitmapOffset;
        this.types = types;
        this.valueOffsets = valueOffsets;
        this.valueLengths = valueLengths;
        this.typesOffset = typesOffset;
        this.valuesOffset = valuesOffset;
    }

    /** The statement id (bytes 1-4), readable before the parameter count is known. */
    public static long statementId(ByteBuf payload) {
        return payload.getUnsignedIntLE(payload.readerIndex() + 1);
    }

    /**
     * Locates the values of a payload (reader index at the command byte).
     *
     * @param paramCount    the statement's parameter count from its prepare
     * @param previousTypes types of the previous execute of this statement, or null
     * @param longData      which parameters were sent with COM_STMT_SEND_LONG_DATA (their values are not in the packet)
     */
    public static ComStmtExecute parse(ByteBuf payload, int paramCount, short[] previousTypes, boolean[] longData) {
        int base = payload.readerIndex();
        int end = payload.writerIndex();
        if (end - base < 10) {
            throw new MalformedPacketException("COM_STMT_EXECUTE of " + (end - base) + " bytes is too short");
        }
        long id = payload.getUnsignedIntLE(base + 1);
        int flags = payload.getUnsignedByte(base + 5);
        int pos = base + 10;
        if (paramCount == 0) {
            return new ComStmtExecute(id, flags, false, pos, new short[0], new int[0], new int[0], pos, pos);
        }
        int bitmapLength = (paramCount + 7) / 8;
        int nullBitmap = pos;
        pos += bitmapLength;
        if (pos >= end) {
            throw new MalformedPacketException("COM_STMT_EXECUTE ends inside its NULL bitmap");
        }
        boolean bound = payload.getByte(pos++) == 1;
        short[] types;
        int typesAt = pos;
        if (bound) {
            if (pos + 2 * paramCount > end) {
                throw new MalformedPacketException("COM_STMT_EXECUTE ends inside its parameter types");
            }
            types = new short[paramCount];
            for (int i = 0; i < paramCount; i++) {
                types[i] = (short) payload.getUnsignedShortLE(pos);
                pos += 2;
            }
        } else if (previousTypes != null && previousTypes.length == paramCount) {
            types = previousTypes;
        } else {
            throw new MalformedPacketException("COM_STMT_EXECUTE without parameter types for a statement never bound");
        }
        int[] offsets = new int[paramCount];
        int[] lengths = new int[paramCount];
        int valuesAt = pos;
        for (int i = 0; i < paramCount; i++) {
            boolean isNull = (payload.getByte(nullBitmap + i / 8) & (1 << (i % 8))) != 0;
            ColumnType type = ColumnType.of(types[i] & 0xff);
            if (isNull || type == ColumnType.NULL || (longData != null && longData[i])) {
                offsets[i] = -1;
                continue;
            }
            if (pos >= end && type.isLengthEncoded() || pos > end) {
                throw new MalformedPacketException("COM_STMT_EXECUTE ends before parameter " + (i + 1));
            }
            int length = type.binaryLength(payload, pos);
            if (pos + length > end) {
                throw new MalformedPacketException("parameter " + (i + 1) + " overruns COM_STMT_EXECUTE");
            }
            offsets[i] = pos;
            lengths[i] = length;
            pos += length;
        }
        return new ComStmtExecute(id, flags, bound, nullBitmap, types, offsets, lengths, typesAt, valuesAt);
    }

    public long statementId() {
        return statementId;
    }

    public int flags() {
        return flags;
    }

    public boolean opensCursor() {
        return (flags & 0x0f) != CURSOR_TYPE_NO_CURSOR;
    }

    public boolean newParamsBound() {
        return newParamsBound;
    }

    public int paramCount() {
        return types.length;
    }

    public short[] types() {
        return types;
    }

    public ColumnType type(int param) {
        return ColumnType.of(types[param] & 0xff);
    }

    public boolean unsigned(int param) {
        return (types[param] & 0x8000) != 0;
    }

    /** True when the value is NULL (or arrives as long data, which the caller tracks). */
    public boolean isNull(int param) {
        return valueOffsets[param] < 0;
    }

    /** Offset of the value in the payload buffer (absolute index), or -1 for NULL. */
    public int valueOffset(int param) {
        return valueOffsets[param];
    }

    public int valueLength(int param) {
        return valueLengths[param];
    }

    public int nullBitmapOffset() {
        return nullBitmapOffset;
    }

    /** Absolute index of the types block (only meaningful when {@link #newParamsBound()}). */
    public int typesOffset() {
        return typesOffset;
    }

    /** Absolute index where the values start. */
    public int valuesOffset() {
        return valuesOffset;
    }
}
