package io.cleave.proxy.backend;

import io.cleave.proxy.protocol.packet.server.ErrPacket;

/** A shard answered with an error where the proxy itself needed success (login, sync, prepare). */
public final class BackendException extends RuntimeException {

    private final ErrPacket error;

    public BackendException(ErrPacket error, String context) {
        super(context + ": " + error.errorCode() + " (" + error.sqlState() + ") " + error.message());
        this.error = error;
    }

    public ErrPacket error() {
        return error;
    }
}
