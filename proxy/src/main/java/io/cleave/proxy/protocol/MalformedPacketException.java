package io.cleave.proxy.protocol;

/**
 * A packet that does not follow the protocol. The peer gets an error and the connection is closed:
 * after a framing or field error the byte stream can no longer be trusted.
 */
public final class MalformedPacketException extends RuntimeException {

    public MalformedPacketException(String message) {
        super(message);
    }

    /**
     * What to tell a client about a packet that failed to decode: this exception's own message,
     * or, for a read past the end (Netty's message names buffer indexes and classes), that the
     * packet is too short.
     */
    public static String reason(RuntimeException e) {
        return e instanceof MalformedPacketException ? e.getMessage() : "the packet ends before its fields do";
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
