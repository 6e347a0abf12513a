package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.server.CommitFence;
import io.cleave.proxy.server.LoopResources;
import io.cleave.proxy.session.SessionSettings;

/**
 * Statements a client session sends to several shards at once: they run on the session's loop,
 * with connections of its response profile, brought to its settings. What differs is whose
 * connections they use and what goes first: a command's ({@link CommandLegs}) or a commit's
 * ({@link DistributedCommit}).
 */
abstract class SessionLegs implements ExchangeContext {

    protected final Session session;

    SessionLegs(Session session) {
        this.session = session;
    }

    @Override
    public LoopResources loop() {
        return session.loop();
    }

    @Override
    public io.cleave.proxy.backend.ShardLogin login() {
        return session.shardLogin();
    }

    @Override
    public SessionSettings settings() {
        return session.settings();
    }

    /** A client's statements wait for acknowledged commits on their shards (see {@link CommitFence}). */
    @Override
    public CommitFence commitFence() {
        return session.runtime().commitFence();
    }

    /** Recorded with the session's connections (given back straight away when its client has left). */
    @Override
    public boolean lent(BackendConnection conn) {
        return session.connections().lent(conn);
    }

    @Override
    public void transactionJoined(int shard, BackendConnection conn) {
    }
}
