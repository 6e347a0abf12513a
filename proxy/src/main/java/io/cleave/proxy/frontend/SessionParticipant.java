package io.cleave.proxy.frontend;

import io.cleave.proxy.cutover.Participant;
import io.netty.channel.EventLoop;

/** What the cutover gate of a move reads of one session, on the session's event loop. */
final class SessionParticipant implements Participant {

    private final Session session;
    private final CommandReader reader;

    SessionParticipant(Session session, CommandReader reader) {
        this.session = session;
        this.reader = reader;
    }

    /** The session it reads (a session waiting for others leaves itself out). */
    Session session() {
        return session;
    }

    @Override
    public EventLoop eventLoop() {
        return session.loop().loop();
    }

    @Override
    public boolean holdsTransactionOn(int shard) {
        TransactionState tx = session.transaction();
        return tx.held(shard) != null || tx.joining(shard);
    }

    @Override
    public boolean holdsAnyShard() {
        TransactionState tx = session.transaction();
        return tx.heldCount() > 0 || tx.joiningAny() || session.connections().pins().anyShard() >= 0;
    }

    @Override
    public long transactionSerial() {
        return session.transaction().serial();
    }

    @Override
    public boolean busy() {
        return reader.busy();
    }

    @Override
    public long commandSerial() {
        return reader.commandSerial();
    }
}
