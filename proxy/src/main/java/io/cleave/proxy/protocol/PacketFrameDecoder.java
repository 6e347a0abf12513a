package io.cleave.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Splits the byte stream into MySQL packets: each message is one frame, a retained slice holding
 * the 4-byte header (3-byte payload length, 1-byte sequence id) and the payload. Frames are not
 * joined here: a payload of 16 MB or more arrives as several frames (the first ones full-size),
 * which the relay forwards as they are and {@link PacketAssembler} joins where a whole command is
 * needed.
 *
 * <p>A frame announcing a payload above {@link #maxPayload(int) the cap} is not waited for: the
 * header alone becomes an {@link Oversized} message and every byte after it is dropped, so a
 * peer cannot make the proxy buffer what it would refuse anyway (random bytes or an HTTP request
 * read as a header announce megabytes).
 */
public final class PacketFrameDecoder extends ByteToMessageDecoder {

    /** A frame longer than the cap was announced; nothing more is read from this stream. */
    public record Oversized(int payloadLength, int sequence, int limit) {
    }

    private int maxPayload = Frames.MAX_PAYLOAD;
    private boolean discarding;

    public PacketFrameDecoder() {
        // Slices share the cumulation buffer; merging keeps it from growing into a composite.
        setCumulator(MERGE_CUMULATOR);
    }

    /** Caps the payload of each frame from now on. */
    public void maxPayload(int bytes) {
        this.maxPayload = Math.min(bytes, Frames.MAX_PAYLOAD);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (discarding) {
            in.skipBytes(in.readableBytes());
            return;
        }
        while (in.readableBytes() >= Frames.HEADER_SIZE) {
            int length = in.getUnsignedMediumLE(in.readerIndex());
            if (length > maxPayload) {
                discarding = true;
                out.add(new Oversized(length, in.getUnsignedByte(in.readerIndex() + 3), maxPayload));
                in.skipBytes(in.readableBytes());
                return;
            }
            if (in.readableBytes() < Frames.HEADER_SIZE + length) {
                return;
            }
            out.add(in.readRetainedSlice(Frames.HEADER_SIZE + length));
        }
    }
}
