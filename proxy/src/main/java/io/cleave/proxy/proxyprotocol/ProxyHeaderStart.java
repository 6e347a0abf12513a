package io.cleave.proxy.proxyprotocol;

import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;

/** What a connection's first bytes are: a PROXY protocol header of version 1 or 2, not one, or too few to tell. */
enum ProxyHeaderStart {
    VERSION_1,
    VERSION_2,
    NONE,
    UNDECIDED;

    private static final byte[] V1 = "PROXY ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] V2 = {0x0D, 0x0A, 0x0D, 0x0A, 0x00, 0x0D, 0x0A, 0x51, 0x55, 0x49, 0x54, 0x0A};

    /**
     * Reads without consuming. A MySQL packet cannot start like either: its first three bytes are its length, and
     * "PRO" or "\r\n\r" would announce megabytes, far more than a login packet may have.
     */
    static ProxyHeaderStart of(ByteBuf in) {
        boolean v1 = matches(in, V1);
        boolean v2 = matches(in, V2);
        int n = in.readableBytes();
        if (v1 && n >= V1.length) {
            return VERSION_1;
        }
        if (v2 && n >= V2.length) {
            return VERSION_2;
        }
        return v1 || v2 ? UNDECIDED : NONE;
    }

    /** Whether the readable bytes so far agree with {@code prefix}. */
    private static boolean matches(ByteBuf in, byte[] prefix) {
        int n = Math.min(in.readableBytes(), prefix.length);
        int at = in.readerIndex();
        for (int i = 0; i < n; i++) {
            if (in.getByte(at + i) != prefix[i]) {
                return false;
            }
        }
        return true;
    }
}
