package io.cleave.proxy.merge;

import io.cleave.proxy.protocol.MalformedPacketException;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A text-protocol row kept for merging: the packet bytes and where each value starts. Values are
 * decoded only when compared or aggregated.
 */
public final class TextRow {

    private final byte[] data;
    private final int[] starts;
    private final int[] lengths;

    private TextRow(byte[] data, int[] starts, int[] lengths) {
        this.data = data;
        this.starts = starts;
        this.lengths = lengths;
    }

    /** Reads a row packet's payload (reader index at its start) of {@code columns} values. */
    public static TextRow decode(ByteBuf payload, int columns) {
        byte[] data = new byte[payload.readableBytes()];
        payload.getBytes(payload.readerIndex(), data);
        int[] starts = new int[columns];
        int[] lengths = new int[columns];
        int pos = 0;
        for (int c = 0; c < columns; c++) {
            if (pos >= data.length) {
                throw new MalformedPacketException("row has fewer than " + columns + " values");
            }
            int first = data[pos] & 0xff;
            if (first == 0xfb) {
                starts[c] = pos + 1;
                lengths[c] = -1;
                pos++;
                continue;
            }
            long length;
            int header;
            if (first < 0xfb) {
                length = first;
                header = 1;
            } else if (first == 0xfc) {
                length = (data[pos + 1] & 0xff) | (data[pos + 2] & 0xff) << 8;
                header = 3;
            } else if (first == 0xfd) {
                length = (data[pos + 1] & 0xff) | (data[pos + 2] & 0xff) << 8 | (data[pos + 3] & 0xff) << 16;
                header = 4;
            } else {
                length = 0;
                for (int i = 8; i >= 1; i--) {
                    length = (length << 8) | (data[pos + i] & 0xff);
                }
                header = 9;
            }
            if (length < 0 || pos + header + length > data.length) {
                throw new MalformedPacketException("row value overruns its packet");
            }
            starts[c] = pos + header;
            lengths[c] = (int) length;
            pos += header + (int) length;
        }
        return new TextRow(data, starts, lengths);
    }

    /** A row built by the proxy (aggregates): values as bytes, null for SQL NULL. */
    public static TextRow of(byte[][] values) {
        int size = 0;
        for (byte[] v : values) {
            size += v == null ? 1 : lenencSize(v.length) + v.length;
        }
        byte[] data = new byte[size];
        int[] starts = new int[values.length];
        int[] lengths = new int[values.length];
        int pos = 0;
        for (int c = 0; c < values.length; c++) {
            byte[] v = values[c];
            if (v == null) {
                data[pos++] = (byte) 0xfb;
                starts[c] = pos;
                lengths[c] = -1;
                continue;
            }
            pos = writeLenenc(data, pos, v.length);
            System.arraycopy(v, 0, data, pos, v.length);
            starts[c] = pos;
            lengths[c] = v.length;
            pos += v.length;
        }
        return new TextRow(data, starts, lengths);
    }

    public int columns() {
        return starts.length;
    }

    public boolean isNull(int column) {
        return lengths[column] < 0;
    }

    public byte[] data() {
        return data;
    }

    public int start(int column) {
        return starts[column];
    }

    public int length(int column) {
        return lengths[column];
    }

    public byte[] bytes(int column) {
        return isNull(column) ? null : Arrays.copyOfRange(data, starts[column], starts[column] + lengths[column]);
    }

    public String string(int column) {
        return isNull(column) ? null : new String(data, starts[column], lengths[column], StandardCharsets.UTF_8);
    }

    /** The row restricted to its first {@code visible} columns. */
    public TextRow prefix(int visible) {
        if (visible >= starts.length) {
            return this;
        }
        byte[][] values = new byte[visible][];
        for (int c = 0; c < visible; c++) {
            values[c] = bytes(c);
        }
        return of(values);
    }

    /** Payload bytes of the first {@code visible} columns as a text-protocol row. */
    public void writeText(ByteBuf out, int visible) {
        if (visible >= starts.length) {
            out.writeBytes(data);
            return;
        }
        int end = visible == 0 ? 0 : (isNull(visible - 1) ? starts[visible - 1] : starts[visible - 1] + lengths[visible - 1]);
        out.writeBytes(data, 0, end);
    }

    private static int lenencSize(int length) {
        return length < 0xfb ? 1 : length < 0x10000 ? 3 : length < 0x1000000 ? 4 : 9;
    }

    private static int writeLenenc(byte[] out, int pos, int length) {
        if (length < 0xfb) {
            out[pos++] = (byte) length;
        } else if (length < 0x10000) {
            out[pos++] = (byte) 0xfc;
            out[pos++] = (byte) length;
            out[pos++] = (byte) (length >>> 8);
        } else if (length < 0x1000000) {
            out[pos++] = (byte) 0xfd;
            out[pos++] = (byte) length;
            out[pos++] = (byte) (length >>> 8);
            out[pos++] = (byte) (length >>> 16);
        } else {
            out[pos++] = (byte) 0xfe;
            for (int i = 0; i < 8; i++) {
                out[pos++] = (byte) (i < 4 ? length >>> (8 * i) : 0);
            }
        }
        return pos;
    }
}
