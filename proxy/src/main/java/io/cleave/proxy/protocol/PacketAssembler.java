package io.cleave.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.CompositeByteBuf;

/**
 * Joins the frames of one logical packet. A payload of exactly 16 MB - 1 bytes means another
 * frame follows (possibly empty). Checks that sequence ids follow each other and that the joined
 * payload stays under a limit (the proxy's max_allowed_packet).
 */
public final class PacketAssembler {

    private final long maxPayload;
    private CompositeByteBuf parts;
    private int lastSequence = -1;

    public PacketAssembler(long maxPayload) {
        this.maxPayload = maxPayload;
    }

    /**
     * Adds a frame (takes ownership). Returns the complete payload (header stripped, owned by the
     * caller) once the last frame arrived, else null.
     */
    public ByteBuf add(ByteBufAllocator alloc, ByteBuf frame) {
        int length = Frames.payloadLength(frame);
        int sequence = Frames.sequence(frame);
        if (parts == null && length < Frames.MAX_PAYLOAD) {
            lastSequence = sequence;
            return frame.skipBytes(Frames.HEADER_SIZE);
        }
        if (parts != null && sequence != ((lastSequence + 1) & 0xff)) {
            frame.release();
            discard();
            throw new MalformedPacketException("packet sequence id " + sequence + " does not follow " + lastSequence);
        }
        if (parts == null) {
            parts = alloc.compositeBuffer(Integer.MAX_VALUE);
        }
        lastSequence = sequence;
        parts.addComponent(true, frame.skipBytes(Frames.HEADER_SIZE));
        if (parts.readableBytes() > maxPayload) {
            long size = parts.readableBytes();
            discard();
            throw new PacketTooLargeException(size, maxPayload);
        }
        if (length < Frames.MAX_PAYLOAD) {
            ByteBuf whole = parts;
            parts = null;
            return whole;
        }
        return null;
    }

    /** Sequence id of the last frame added. */
    public int lastSequence() {
        return lastSequence;
    }

    public void discard() {
        if (parts != null) {
            parts.release();
            parts = null;
        }
    }
}
