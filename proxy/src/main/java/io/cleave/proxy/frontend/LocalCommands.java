package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.metrics.RouteKind;
import io.netty.buffer.ByteBuf;

/**
 * Commands about the connection rather than a statement: COM_PING, COM_QUIT, COM_SET_OPTION and
 * COM_RESET_CONNECTION, answered by the proxy; COM_FIELD_LIST and COM_STATISTICS, which any shard
 * answers alike.
 */
final class LocalCommands {

    private final Session session;
    private final ShardExchange relay;

    LocalCommands(Session session, ShardExchange relay) {
        this.session = session;
        this.relay = relay;
    }

    void ping(Command command) {
        command.served(RouteKind.LOCAL);
        command.ok();
    }

    void quit(Command command) {
        command.closeConnection();
        command.finishSilently();
    }

    /** COM_SET_OPTION: multi-statements on (0) or off (1). */
    void setOption(Command command) {
        ByteBuf payload = command.payload();
        int option = payload.getUnsignedShortLE(payload.readerIndex() + 1);
        if (option > 1) {
            CommandHandlers.unknown(command);
            return;
        }
        session.multiStatements(option == 0);
        command.served(RouteKind.LOCAL);
        session.output().endOfRows(session.status(), 0);
        command.finish();
    }

    void resetConnection(Command command) {
        command.served(RouteKind.LOCAL);
        session.reset(session.settings().schema(), null);
        command.ok();
    }

    /** COM_FIELD_LIST, COM_STATISTICS: relayed to the shard the session uses, else any. */
    void relayToAnyShard(Command command, ResponseKind kind) {
        command.served(RouteKind.SINGLE_SHARD);
        relay.run(command, session.anyShard(), kind, ShardExchange.Mode.RELAY, null, false,
                session.transaction().active());
    }
}
