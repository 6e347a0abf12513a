package io.cleave.proxy.server;

import io.cleave.proxy.protocol.packet.server.ErrPacket;

/**
 * Whether this proxy's home may still write as the primary of a standby pair. The daemon fences it when it can
 * no longer prove it holds the primary's lease (or learns of a newer epoch): from then on the proxy refuses
 * statements, sends no cross-shard decision and no branch's XA COMMIT, and its periodic XA recovery stops; the
 * new primary settles what was left prepared by the replicated decision rows.
 * <p>
 * The fence is also a deadline: the daemon moves it forward at every renewal of its lease, to the moment it
 * must have fenced by, and the proxy refuses past it on its own. So a daemon whose fencing thread did not run
 * in time (a long pause of the whole process) cannot serve past its lease either.
 * <p>
 * Read on every statement and before each phase of a cross-shard commit: two volatile reads and the clock, no
 * lock, nothing allocated while serving. A read-only MariaDB still takes XA COMMIT (MDEV-30978) and an account
 * with SUPER writes through read_only on 10.11, so the shards' read_only alone fences nothing.
 */
public final class PrimaryFence {

    /** MySQL's ER_OPTION_PREVENTS_STATEMENT: what a read-only server answers a write with. */
    public static final int ERROR_CODE = 1290;
    public static final String SQL_STATE = "HY000";
    private static final ErrPacket LEASE_OVER = refusal("its lease as the standby pair's primary ran out before it"
            + " could renew it; the standby may take over");

    /** The error clients get while fenced; null while this home serves. */
    private volatile ErrPacket refusal;
    /** Whether {@link #until} applies: only on a pair coordinated through a lease. */
    private volatile boolean leased;
    /** System.nanoTime() past which this home refuses, unless the lease was renewed meanwhile. */
    private volatile long until;

    /** Fences the proxy; {@code reason} says why and names the new primary once known. */
    public void fence(String reason) {
        refusal = refusal(reason);
    }

    /** This home holds the primary's lease again. */
    public void lift() {
        refusal = null;
    }

    /** This home holds the primary's lease; it must stop serving at {@code nanos} (System.nanoTime()) unless renewed. */
    public void leaseUntil(long nanos) {
        until = nanos;
        leased = true;
    }

    /** This home handed the primary's lease to the other home and forwards to it: no deadline of its own. */
    public void withoutLease() {
        leased = false;
    }

    public boolean fenced() {
        return refusal() != null;
    }

    /** The error to answer with while fenced, else null. */
    public ErrPacket refusal() {
        ErrPacket r = refusal;
        if (r != null) {
            return r;
        }
        return leased && System.nanoTime() - until >= 0 ? LEASE_OVER : null;
    }

    private static ErrPacket refusal(String reason) {
        return new ErrPacket(ERROR_CODE, SQL_STATE, "this Cleave home is fenced and cannot execute this statement: "
                + reason);
    }
}
