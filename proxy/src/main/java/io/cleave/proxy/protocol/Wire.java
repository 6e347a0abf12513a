package io.cleave.proxy.protocol;

import io.netty.buffer.ByteBuf;

import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * The MySQL protocol's basic data types on a ByteBuf: fixed-length little-endian integers,
 * length-encoded integers and strings, NUL-terminated strings. All reads advance the reader index.
 */
public final class Wire {

    /** Marks a NULL column value in a text row (a length-encoded integer can never start with it). */
    public static final int NULL_MARKER = 0xfb;

    private Wire() {
    }

    public static long readLenencInt(ByteBuf buf) {
        int first = buf.readUnsignedByte();
        if (first < 0xfb) {
            return first;
        }
        switch (first) {
            case 0xfc:
                return buf.readUnsignedShortLE();
            case 0xfd:
                return buf.readUnsignedMediumLE();
            case 0xfe:
                return buf.readLongLE();
            default:
                throw new MalformedPacketException("invalid length-encoded integer prefix 0x" + Integer.toHexString(first));
        }
    }

    public static void writeLenencInt(ByteBuf buf, long value) {
        if (value < 0xfb && value >= 0) {
            buf.writeByte((int) value);
        } else if (value < 0x10000 && value >= 0) {
            buf.writeByte(0xfc);
            buf.writeShortLE((int) value);
        } else if (value < 0x1000000 && value >= 0) {
            buf.writeByte(0xfd);
            buf.writeMediumLE((int) value);
        } else {
            buf.writeByte(0xfe);
            buf.writeLongLE(value);
        }
    }

    public static int lenencIntSize(long value) {
        if (value < 0xfb && value >= 0) {
            return 1;
        } else if (value < 0x10000 && value >= 0) {
            return 3;
        } else if (value < 0x1000000 && value >= 0) {
            return 4;
        }
        return 9;
    }

    public static byte[] readLenencBytes(ByteBuf buf) {
        long length = readLenencInt(buf);
        checkLength(buf, length);
        byte[] bytes = new byte[(int) length];
        buf.readBytes(bytes);
        return bytes;
    }

    public static String readLenencString(ByteBuf buf, Charset charset) {
        long length = readLenencInt(buf);
        checkLength(buf, length);
        String s = buf.toString(buf.readerIndex(), (int) length, charset);
        buf.skipBytes((int) length);
        return s;
    }

    public static String readLenencString(ByteBuf buf) {
        return readLenencString(buf, StandardCharsets.UTF_8);
    }

    /** Skips a length-encoded string; returns its length. */
    public static long skipLenencString(ByteBuf buf) {
        long length = readLenencInt(buf);
        checkLength(buf, length);
        buf.skipBytes((int) length);
        return length;
    }

    public static void writeLenencBytes(ByteBuf buf, byte[] bytes) {
        writeLenencInt(buf, bytes.length);
        buf.writeBytes(bytes);
    }

    public static void writeLenencString(ByteBuf buf, String s) {
        writeLenencBytes(buf, s.getBytes(StandardCharsets.UTF_8));
    }

    public static String readNulString(ByteBuf buf) {
        return readNulString(buf, StandardCharsets.UTF_8);
    }

    public static String readNulString(ByteBuf buf, Charset charset) {
        int end = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
        if (end < 0) {
            throw new MalformedPacketException("string is not NUL-terminated");
        }
        String s = buf.toString(buf.readerIndex(), end - buf.readerIndex(), charset);
        buf.readerIndex(end + 1);
        return s;
    }

    public static byte[] readNulBytes(ByteBuf buf) {
        int end = buf.indexOf(buf.readerIndex(), buf.writerIndex(), (byte) 0);
        if (end < 0) {
            throw new MalformedPacketException("string is not NUL-terminated");
        }
        byte[] bytes = new byte[end - buf.readerIndex()];
        buf.readBytes(bytes);
        buf.skipBytes(1);
        return bytes;
    }

    public static void writeNulString(ByteBuf buf, String s) {
        buf.writeBytes(s.getBytes(StandardCharsets.UTF_8));
        buf.writeByte(0);
    }

    public static void writeNulBytes(ByteBuf buf, byte[] bytes) {
        buf.writeBytes(bytes);
        buf.writeByte(0);
    }

    /** The rest of the packet as a string (string<EOF>). */
    public static String readRestString(ByteBuf buf) {
        String s = buf.toString(StandardCharsets.UTF_8);
        buf.readerIndex(buf.writerIndex());
        return s;
    }

    public static byte[] readRestBytes(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.readBytes(bytes);
        return bytes;
    }

    public static byte[] readBytes(ByteBuf buf, int length) {
        if (length > buf.readableBytes() || length < 0) {
            throw new MalformedPacketException("field of " + length + " bytes overruns the packet ("
                    + buf.readableBytes() + " left)");
        }
        byte[] bytes = new byte[length];
        buf.readBytes(bytes);
        return bytes;
    }

    private static void checkLength(ByteBuf buf, long length) {
        if (length < 0 || length > buf.readableBytes()) {
            throw new MalformedPacketException("length-encoded field of " + length + " bytes overruns the packet ("
                    + buf.readableBytes() + " left)");
        }
    }
}
