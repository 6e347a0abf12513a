package io.cleave.proxy.protocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.util.HexFormat;

/** Literal packets in tests: payloads as hex, as captured from real servers and clients. */
public final class Hex {

    private Hex() {
    }

    public static ByteBuf payload(String hex) {
        return Unpooled.wrappedBuffer(HexFormat.of().parseHex(hex.replace(" ", "")));
    }

    /** A frame (header + payload) with the given sequence id. */
    public static ByteBuf frame(int sequence, String hex) {
        byte[] payload = HexFormat.of().parseHex(hex.replace(" ", ""));
        ByteBuf buf = Unpooled.buffer(4 + payload.length);
        buf.writeMediumLE(payload.length);
        buf.writeByte(sequence);
        buf.writeBytes(payload);
        return buf;
    }

    public static String of(ByteBuf buf) {
        byte[] bytes = new byte[buf.readableBytes()];
        buf.getBytes(buf.readerIndex(), bytes);
        return HexFormat.of().formatHex(bytes);
    }
}
