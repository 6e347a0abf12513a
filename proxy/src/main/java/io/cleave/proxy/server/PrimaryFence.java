package io.cleave.proxy.server;

import io.cleave.proxy.protocol.packet.server.ErrPacket;

/**
 * Whether this proxy's home may still write as the primary of a standby pair. The daemon fences it when
 * it can no longer prove it holds the primary's lease (or learns of a newer epoch): from then on the proxy
 * refuses statements, sends no cross-shard decision and no branch's XA COMMIT, and its periodic XA
 * recovery stops; the new primary settles what was left prepared by the replicated decision rows.
 * <p>
 * Read on every statement and before each phase of a cross-shard commit: one volatile read, no lock.
 * A read-only MariaDB still takes XA COMMIT (MDEV-30978) and an account with SUPER writes through
 * read_only on 10.11, so the shards' read_only alone fences nothing.
 */
public final class PrimaryFence {

    /** MySQL's ER_OPTION_PREVENTS_STATEMENT: what a read-only server answers a write with. */
    public static final int ERROR_CODE = 1290;
    public static final String SQL_STATE = "HY000";

    /** The error clients get while fenced; null while this home serves. */
    private volatile ErrPacket refusal;

    /** Fences the proxy; {@code reason} says why and names the new primary once known. */
    public void fence(String reason) {
        refusal = new ErrPacket(ERROR_CODE, SQL_STATE, "this Cleave home is fenced and cannot execute"
                + " this statement: " + reason);
    }

    /** This home holds the primary's lease again. */
    public void lift() {
        refusal = null;
    }

    public boolean fenced() {
        return refusal != null;
    }

    /** The error to answer with while fenced, else null. */
    public ErrPacket refusal() {
        return refusal;
    }
}
