package io.cleave.proxy.proxyprotocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;

import java.net.InetAddress;
import java.nio.charset.StandardCharsets;

/** PROXY protocol headers as literal bytes, as HAProxy writes them. */
public final class ProxyHeaders {

    private static final byte[] V2_SIGNATURE = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    private ProxyHeaders() {
    }

    public static ByteBuf v1(String line) {
        return Unpooled.copiedBuffer(line, StandardCharsets.US_ASCII);
    }

    /** A version 2 PROXY (0x21) header over TCP/IPv4 (0x11) or TCP/IPv6 (0x21). */
    public static ByteBuf v2(String source, int sourcePort, String destination, int destinationPort) throws Exception {
        byte[] src = InetAddress.getByName(source).getAddress();
        byte[] dst = InetAddress.getByName(destination).getAddress();
        ByteBuf b = Unpooled.buffer();
        b.writeBytes(V2_SIGNATURE);
        b.writeByte(0x21);
        b.writeByte(src.length == 4 ? 0x11 : 0x21);
        b.writeShort(src.length * 2 + 4);
        b.writeBytes(src).writeBytes(dst).writeShort(sourcePort).writeShort(destinationPort);
        return b;
    }

    /** A version 2 LOCAL header (a balancer's own health check): no address. */
    public static ByteBuf v2Local() {
        ByteBuf b = Unpooled.buffer();
        b.writeBytes(V2_SIGNATURE);
        b.writeByte(0x20);
        b.writeByte(0x00);
        b.writeShort(0);
        return b;
    }
}
