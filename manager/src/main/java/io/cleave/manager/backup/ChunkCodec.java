package io.cleave.manager.backup;

import com.github.luben.zstd.Zstd;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;

/**
 * The bytes of one chunk file: a run of a table's rows in primary-key order, each column as its
 * value's bytes as the server sent them (text for numbers, dates and strings in utf8mb4, raw bytes
 * for binary columns) or NULL, zstd-compressed. Layout before compression: "CLVR" 1, the column
 * count, then per row per column a varint of (length + 1), 0 standing for NULL, and the bytes.
 */
public final class ChunkCodec {

    private static final byte[] MAGIC = "CLVR".getBytes(StandardCharsets.US_ASCII);
    private static final int VERSION = 1;
    private static final int LEVEL = 3;

    private ChunkCodec() {
    }

    /** Collects rows of {@code columns} values and encodes them. */
    public static final class Writer {
        private final ByteArrayOutputStream out = new ByteArrayOutputStream(1 << 16);
        private final int columns;
        private int rows;

        public Writer(int columns) {
            this.columns = columns;
            out.writeBytes(MAGIC);
            varint(VERSION);
            varint(columns);
        }

        public void row(byte[][] values) {
            if (values.length != columns) {
                throw new IllegalArgumentException(values.length + " values for " + columns + " columns");
            }
            for (byte[] v : values) {
                if (v == null) {
                    varint(0);
                } else {
                    varint(v.length + 1L);
                    out.writeBytes(v);
                }
            }
            rows++;
        }

        public int rows() {
            return rows;
        }

        /** Bytes before compression. */
        public int size() {
            return out.size();
        }

        /** The compressed chunk. */
        public byte[] finish() {
            return Zstd.compress(out.toByteArray(), LEVEL);
        }

        private void varint(long v) {
            while ((v & ~0x7FL) != 0) {
                out.write((int) ((v & 0x7F) | 0x80));
                v >>>= 7;
            }
            out.write((int) v);
        }
    }

    /** Every row of a compressed chunk of {@code columns} columns. */
    public static List<byte[][]> read(byte[] compressed, int columns) throws IOException {
        long size = Zstd.getFrameContentSize(compressed);
        if (size < 0 || size > Integer.MAX_VALUE) {
            throw new IOException("not a chunk file: no zstd frame with a known size");
        }
        byte[] raw = Zstd.decompress(compressed, (int) size);
        int[] at = {0};
        for (byte b : MAGIC) {
            if (at[0] >= raw.length || raw[at[0]++] != b) {
                throw new IOException("not a chunk file: its magic is wrong");
            }
        }
        long version = varint(raw, at);
        long count = varint(raw, at);
        if (version != VERSION || count != columns) {
            throw new IOException("chunk of version " + version + " with " + count + " columns, expected version "
                    + VERSION + " with " + columns);
        }
        List<byte[][]> rows = new ArrayList<>();
        while (at[0] < raw.length) {
            byte[][] row = new byte[columns][];
            for (int c = 0; c < columns; c++) {
                long n = varint(raw, at);
                if (n > 0) {
                    int len = (int) (n - 1);
                    if (at[0] + len > raw.length) {
                        throw new IOException("chunk file ends inside a value");
                    }
                    row[c] = java.util.Arrays.copyOfRange(raw, at[0], at[0] + len);
                    at[0] += len;
                }
            }
            rows.add(row);
        }
        return rows;
    }

    private static long varint(byte[] raw, int[] at) throws IOException {
        long v = 0;
        for (int shift = 0; shift < 64; shift += 7) {
            if (at[0] >= raw.length) {
                throw new IOException("chunk file ends inside a length");
            }
            int b = raw[at[0]++] & 0xFF;
            v |= (long) (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                return v;
            }
        }
        throw new IOException("chunk file has a length of more than 64 bits");
    }

    /** Hex SHA-256 of {@code bytes}, as the manifest records each stored file. */
    public static String sha256(byte[] bytes) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(bytes));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
