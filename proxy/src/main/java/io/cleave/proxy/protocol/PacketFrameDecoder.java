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
 */
public final class PacketFrameDecoder extends ByteToMessageDecoder {

    public PacketFrameDecoder() {
        // Slices share the cumulation buffer; merging keeps it from growing into a composite.
        setCumulator(MERGE_CUMULATOR);
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        while (in.readableBytes() >= Frames.HEADER_SIZE) {
            int length = in.getUnsignedMediumLE(in.readerIndex());
            if (in.readableBytes() < Frames.HEADER_SIZE + length) {
                return;
            }
            out.add(in.readRetainedSlice(Frames.HEADER_SIZE + length));
        }
    }
}
