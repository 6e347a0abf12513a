package io.cleave.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

/**
 * Reading and writing the 4-byte packet header of a frame (a ByteBuf whose reader index is at the
 * header), and framing payloads for sending, splitting those of 16 MB and more.
 */
public final class Frames {

    public static final int HEADER_SIZE = 4;
    /** A payload this long continues in the next frame. */
    public static final int MAX_PAYLOAD = 0xffffff;

    private Frames() {
    }

    public static int payloadLength(ByteBuf frame) {
        return frame.getUnsignedMediumLE(frame.readerIndex());
    }

    public static int sequence(ByteBuf frame) {
        return frame.getUnsignedByte(frame.readerIndex() + 3);
    }

    public static void setSequence(ByteBuf frame, int sequence) {
        frame.setByte(frame.readerIndex() + 3, sequence);
    }

    /** The first payload byte, or -1 for an empty payload. */
    public static int firstByte(ByteBuf frame) {
        return payloadLength(frame) == 0 ? -1 : frame.getUnsignedByte(frame.readerIndex() + HEADER_SIZE);
    }

    /** A slice of the payload (no copy, not retained). */
    public static ByteBuf payload(ByteBuf frame) {
        return frame.slice(frame.readerIndex() + HEADER_SIZE, payloadLength(frame));
    }

    /** A buffer with room reserved for the header; write the payload, then call {@link #finish}. */
    public static ByteBuf begin(ByteBufAllocator alloc, int payloadSizeHint) {
        ByteBuf buf = alloc.ioBuffer(HEADER_SIZE + payloadSizeHint);
        buf.writeZero(HEADER_SIZE);
        return buf;
    }

    /**
     * Writes the header of a buffer made by {@link #begin} and returns the buffer to send (split
     * into several frames when the payload is 16 MB or more). Consumes {@code buf}.
     *
     * @return the frame(s); the next sequence id is {@code sequence + frameCount(...)}
     */
    public static ByteBuf finish(ByteBuf buf, int sequence) {
        int start = buf.readerIndex();
        int payload = buf.writerIndex() - start - HEADER_SIZE;
        if (payload < MAX_PAYLOAD) {
            buf.setMediumLE(start, payload);
            buf.setByte(start + 3, sequence);
            return buf;
        }
        return split(buf, start, payload, sequence);
    }

    /** How many frames a payload of this length takes (a multiple of 16 MB - 1 needs an empty one). */
    public static int frameCount(int payloadLength) {
        return payloadLength / MAX_PAYLOAD + 1;
    }

    private static ByteBuf split(ByteBuf buf, int start, int payload, int sequence) {
        ByteBuf out = buf.alloc().ioBuffer(payload + HEADER_SIZE * frameCount(payload));
        int offset = start + HEADER_SIZE;
        int remaining = payload;
        int seq = sequence;
        while (true) {
            int chunk = Math.min(remaining, MAX_PAYLOAD);
            out.writeMediumLE(chunk);
            out.writeByte(seq++ & 0xff);
            out.writeBytes(buf, offset, chunk);
            offset += chunk;
            remaining -= chunk;
            if (chunk < MAX_PAYLOAD) {
                break;
            }
        }
        buf.release();
        return out;
    }
}
