package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.server.LoopResources;
import io.cleave.proxy.session.Charset;
import io.cleave.proxy.session.SessionSettings;

import java.util.List;

/** The proxy running its own statements (sequences): autocommit, no schema, pool connections. */
final class SystemContext implements ExchangeContext {

    private static final SessionSettings NEUTRAL = SessionSettings.initial(null, new Charset("utf8mb4", null));

    private final LoopResources loop;

    SystemContext(LoopResources loop) {
        this.loop = loop;
    }

    @Override
    public LoopResources loop() {
        return loop;
    }

    @Override
    public io.cleave.proxy.backend.ShardLogin login() {
        return io.cleave.proxy.backend.ShardLogin.SHARD_ACCOUNT;
    }

    @Override
    public SessionSettings settings() {
        return NEUTRAL;
    }

    @Override
    public BackendConnection connectionFor(int shard) {
        return null;
    }

    @Override
    public List<String> preamble(int shard, boolean startsTransaction) {
        return null;
    }

    @Override
    public void transactionJoined(int shard, BackendConnection conn) {
    }

    @Override
    public void releaseLeg(int shard, BackendConnection conn, boolean ok) {
        conn.release();
    }
}
