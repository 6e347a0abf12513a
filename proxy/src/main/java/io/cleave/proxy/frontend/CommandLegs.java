package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.ConnectionWaiter;
import io.cleave.proxy.session.SessionSettings;

import java.util.List;

/**
 * A session command's statements on several shards ({@link MultiExchange} legs): the session's
 * settings and connections, its transaction joined where the statement belongs to it, and what
 * the command's statement needs from each connection.
 */
final class CommandLegs extends SessionLegs {

    private final Command command;
    /** The settings the legs run with, or null for the command's own. */
    private final SessionSettings settings;

    CommandLegs(Session session, Command command) {
        this(session, command, null);
    }

    /** Legs with other settings than the command's (an evaluation's own statements run in utf8mb4). */
    CommandLegs(Session session, Command command, SessionSettings settings) {
        super(session);
        this.command = command;
        this.settings = settings;
    }

    @Override
    public SessionSettings settings() {
        return settings != null ? settings : session.settingsFor(command);
    }

    @Override
    public BackendConnection connectionFor(int shard) {
        return session.connections().connectionFor(shard, command.effects().previousConnection());
    }

    @Override
    public List<String> preamble(int shard, boolean startsTransaction) {
        return session.preamble(shard, startsTransaction, command);
    }

    @Override
    public void transactionJoined(int shard, BackendConnection conn) {
        session.transaction().joined(shard, conn);
    }

    @Override
    public ConnectionWaiter waiter() {
        return session.tracked();
    }

    @Override
    public void joinFailed(int shard) {
        session.transaction().joinFailed(shard);
    }

    @Override
    public void releaseLeg(int shard, BackendConnection conn, boolean ok) {
        session.connections().settle(shard, conn, false);
    }
}
