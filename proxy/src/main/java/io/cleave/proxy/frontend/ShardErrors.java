package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardBusyException;
import io.cleave.proxy.deadlock.DeadlockVictimException;
import io.cleave.proxy.protocol.packet.server.ErrPacket;

/** The errors a client gets when a shard could not be reached for its statement. */
final class ShardErrors {

    private ShardErrors() {
    }

    /**
     * The error for a statement that got no backend connection: all busy past the wait timeout
     * (ER_QUERY_TIMEOUT: the statement was not run and may be retried; not a connection error
     * such as 1040, which drivers map to SQLSTATE 08004 and treat as a dead connection), or the
     * shard unreachable.
     */
    static ErrPacket unavailable(int shard, Throwable cause) {
        if (cause instanceof DeadlockVictimException victim) {
            // Taken out of a pool's line as the victim of a deadlock across shards.
            return victim.error();
        }
        String message = cause.getMessage() != null ? cause.getMessage() : cause.toString();
        if (cause instanceof ShardBusyException) {
            return new ErrPacket(3024, "HY000", "Statement timed out waiting for a backend connection: " + message);
        }
        if (cause instanceof io.cleave.proxy.backend.BackendException refused && refused.error().errorCode() != 2013) {
            // The shard refused the login as the client's account (its password or host changed since the
            // client logged in, or it was dropped): the shard's own error, as a server would answer it.
            ErrPacket e = refused.error();
            return new ErrPacket(e.errorCode(), e.sqlState(), e.message() + " (shard " + shard + ", logging in as the"
                    + " client's account for its statement)");
        }
        return new ErrPacket(2013, "HY000", "Shard " + shard + " is unavailable: " + message);
    }
}
