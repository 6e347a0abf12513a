package io.cleave.proxy.merge;

import io.netty.buffer.ByteBuf;

import java.io.ByteArrayOutputStream;

/**
 * Joins the frames of rows of 16 MB and more before they are decoded for a merge: such a row
 * comes as a frame of exactly 16 MB - 1 bytes followed by continuation frames, the last one
 * shorter (possibly empty).
 */
public final class LongRows {

    private ByteArrayOutputStream pending;

    /**
     * A row frame's payload; the row, or null when it continues in the next frames.
     *
     * @param continues the frame is 16 MB - 1 bytes long
     */
    public TextRow row(ByteBuf payload, boolean continues, int columns) {
        if (!continues) {
            return TextRow.decode(payload, columns);
        }
        pending = new ByteArrayOutputStream(2 * payload.readableBytes());
        append(payload);
        return null;
    }

    /** A continuation frame's payload; the joined row once the last frame came, else null. */
    public TextRow continuation(ByteBuf payload, boolean continues, int columns) {
        if (pending == null) {
            return null;
        }
        append(payload);
        if (continues) {
            return null;
        }
        byte[] whole = pending.toByteArray();
        pending = null;
        return TextRow.decode(io.netty.buffer.Unpooled.wrappedBuffer(whole), columns);
    }

    private void append(ByteBuf payload) {
        byte[] chunk = new byte[payload.readableBytes()];
        payload.getBytes(payload.readerIndex(), chunk);
        pending.write(chunk, 0, chunk.length);
    }
}
