package io.cleave.proxy.deadlock;

import io.cleave.proxy.protocol.packet.server.ErrPacket;

/**
 * A transaction waiting in a pool's line was chosen as a deadlock victim: its request for a
 * connection fails with this, and the client gets {@link #error()} once every shard rolled back.
 */
public final class DeadlockVictimException extends RuntimeException {

    private final transient ErrPacket error;

    public DeadlockVictimException(ErrPacket error) {
        super(error.message());
        this.error = error;
    }

    public ErrPacket error() {
        return error;
    }

    @Override
    public synchronized Throwable fillInStackTrace() {
        return this;
    }
}
