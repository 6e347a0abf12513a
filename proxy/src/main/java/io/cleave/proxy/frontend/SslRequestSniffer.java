package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.packet.client.HandshakeResponse41;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.ssl.SslContext;

import java.util.List;

/**
 * Looks at the client's first packet only. If it is an SSLRequest, it is consumed, an SslHandler
 * takes this handler's place and whatever the client sent after it (the TLS ClientHello) flows
 * into the SslHandler; otherwise the bytes flow on unchanged. Either way this handler then leaves
 * the pipeline (a removed decoder hands its buffered bytes to the next handler).
 */
final class SslRequestSniffer extends ByteToMessageDecoder {

    /** Fired down the pipeline when the client switched to TLS. */
    record SslRequested(int sequence) {
    }

    private final SslContext sslContext;

    SslRequestSniffer(SslContext sslContext) {
        this.sslContext = sslContext;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (in.readableBytes() < Frames.HEADER_SIZE) {
            return;
        }
        int length = in.getUnsignedMediumLE(in.readerIndex());
        // Only an SSLRequest is waited for whole (it is 32 bytes): anything else goes on to the
        // framing, which caps what it buffers before login.
        if (length == HandshakeResponse41.FIXED_PART && in.readableBytes() < Frames.HEADER_SIZE + length) {
            return;
        }
        boolean ssl = length == HandshakeResponse41.FIXED_PART
                && (in.getUnsignedIntLE(in.readerIndex() + Frames.HEADER_SIZE) & Capabilities.SSL) != 0;
        if (ssl && sslContext != null) {
            int sequence = in.getUnsignedByte(in.readerIndex() + 3);
            in.skipBytes(Frames.HEADER_SIZE + length);
            ctx.pipeline().addAfter(ctx.name(), "tls", sslContext.newHandler(ctx.alloc()));
            ctx.fireUserEventTriggered(new SslRequested(sequence));
        }
        ctx.pipeline().remove(this);
    }
}
