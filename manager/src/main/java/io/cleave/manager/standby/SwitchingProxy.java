package io.cleave.manager.standby;

import io.cleave.proxy.cutover.CutoverGate;

import java.util.List;
import java.util.concurrent.Callable;

/** What a switchover needs of the primary's running proxy. */
public interface SwitchingProxy {

    /** Where statements are held while the shards switch. */
    CutoverGate gate();

    /** The proxy's run id (its XA ids carry it). */
    String runId();

    /** Runs {@code work} while the proxy's XA recovery does not (it would write to the shards). */
    <T> T withoutRecovery(Callable<T> work) throws Exception;

    /**
     * Serves every shard from the new primary's shard from now on, logging in as {@code user}: over its Unix
     * socket when {@code sockets} names one this host has, else over TCP.
     */
    void forwardTo(List<Attachment.ShardAddress> shards, java.util.Map<Integer, String> sockets, String user,
                   String password);

    /** Whether the proxy serves another home's shards (it forwards its clients to the primary). */
    boolean forwarding();

    /**
     * Serves this home's own shards again (this home took over), leaving the prepared branches of
     * {@code otherRun} (the other home's proxy, forwarding here from now on) to that proxy; null after a
     * failover (the other home is lost: every branch is this proxy's to settle).
     */
    void serveOwnShards(String otherRun);

    /** Serves no shard at all: every statement fails naming its shard (a switchover that may have split the pair). */
    void serveNoShard();
}
