package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.ConnectionWaiter;
import io.cleave.proxy.server.CommitFence;
import io.cleave.proxy.server.LoopResources;
import io.cleave.proxy.session.SessionSettings;

import java.util.List;

/**
 * Whose statement a {@link MultiExchange} runs: a client session (its settings, its transaction's
 * connections) or the proxy itself (neutral settings, pool connections only).
 */
interface ExchangeContext {

    LoopResources loop();

    /** Who the legs' backend connections log in as (and the response profile they serve). */
    io.cleave.proxy.backend.ShardLogin login();

    SessionSettings settings();

    /**
     * A connection borrowed for this context came from the pool. Returns false when the context
     * is gone meanwhile (its client left): the connection has been given back and is not used.
     */
    default boolean lent(BackendConnection conn) {
        return true;
    }

    /** A connection this context already holds to {@code shard}, or null to borrow one. */
    BackendConnection connectionFor(int shard);

    /** Statements to send before the leg's statement (transaction start), or null. */
    List<String> preamble(int shard, boolean startsTransaction);

    /** The preamble went through: if it joined the shard to the transaction, the connection now belongs to it. */
    void transactionJoined(int shard, BackendConnection conn);

    /** Whose statement waits when a leg has to stand in a pool's line (null: nobody's in particular). */
    default ConnectionWaiter waiter() {
        return null;
    }

    /** The preamble failed: the shard did not join. */
    default void joinFailed(int shard) {
    }

    /**
     * Where the context's statements wait for branch commits of acknowledged transactions before
     * reaching a shard; null for the commit protocol's own statements, which must not wait.
     */
    default CommitFence commitFence() {
        return null;
    }

    /** The leg is done with its connection. */
    void releaseLeg(int shard, BackendConnection conn, boolean ok);
}
