package io.cleave.proxy.protocol.packet.server;

import io.cleave.proxy.protocol.Wire;
import io.netty.buffer.ByteBuf;

/** Extra authentication data from the server (caching_sha2_password's status bytes and RSA key). */
public record AuthMoreData(byte[] data) {

    public static final int HEADER = 0x01;
    /** caching_sha2_password: the scramble matched the cached hash. */
    public static final byte FAST_AUTH_SUCCESS = 3;
    /** caching_sha2_password: send the password (over TLS) or ask for the RSA key. */
    public static final byte PERFORM_FULL_AUTHENTICATION = 4;

    public void write(ByteBuf out) {
        out.writeByte(HEADER);
        out.writeBytes(data);
    }

    public static AuthMoreData decode(ByteBuf in) {
        in.skipBytes(1);
        return new AuthMoreData(Wire.readRestBytes(in));
    }
}
