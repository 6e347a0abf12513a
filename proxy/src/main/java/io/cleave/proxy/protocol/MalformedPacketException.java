package io.cleave.proxy.protocol;

/**
 * A packet that does not follow the protocol. The peer gets an error and the connection is closed:
 * after a framing or field error the byte stream can no longer be trusted.
 */
public final class MalformedPacketException extends RuntimeException {

    public MalformedPacketException(String message) {
        super(message);
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
