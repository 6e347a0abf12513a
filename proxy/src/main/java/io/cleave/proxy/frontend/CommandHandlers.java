package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.cutover.Participant;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.server.ErrPacket;

import java.util.EnumMap;
import java.util.EnumSet;
import java.util.Map;
import java.util.Set;

/**
 * The handlers of one session, wired once, and which one runs each client command. A handler
 * gets the {@link Command} and ends it; the path of a statement from here is
 * COM_QUERY / COM_STMT_EXECUTE -> plan -> {@link PlanExecutor} -> one shard
 * ({@link ShardExchange}, ended by {@link RelayOutcome}), several shards, or the proxy itself.
 */
final class CommandHandlers {

    /** What runs one kind of command. */
    @FunctionalInterface
    interface Handler {
        void handle(Command command);
    }

    /**
     * What a fenced home refuses: every statement (reads too: a fenced home's data may already be behind the
     * new primary's). Ping, quit and the like still work, so clients see the error instead of a dead server.
     */
    private static final Set<CommandCode> FENCED_COMMANDS = EnumSet.of(CommandCode.QUERY,
            CommandCode.STMT_EXECUTE, CommandCode.STMT_PREPARE, CommandCode.FIELD_LIST, CommandCode.INIT_DB);

    private final Session session;
    private final Map<CommandCode, Handler> byCode = new EnumMap<>(CommandCode.class);
    private final ChangeUser changeUser;

    CommandHandlers(Session session, LoginChallenge challenge, Participant participant) {
        this.session = session;
        Cursors cursors = new Cursors(session);
        ShardExchange relay = new ShardExchange(session, new RelayOutcome(session, cursors));
        SettingStatements settings = new SettingStatements(session);
        Kills kills = new Kills(session);
        PlanExecutor executor = new PlanExecutor(session, participant, relay, settings,
                new TransactionStatements(session), kills);
        TextStatements text = new TextStatements(session, executor);
        PreparedStatements prepared = new PreparedStatements(session, executor, relay, cursors);
        LocalCommands local = new LocalCommands(session, relay);
        changeUser = new ChangeUser(session, challenge);
        byCode.put(CommandCode.QUERY, text::query);
        byCode.put(CommandCode.STMT_EXECUTE, prepared::execute);
        byCode.put(CommandCode.STMT_PREPARE, prepared::prepare);
        byCode.put(CommandCode.STMT_CLOSE, prepared::close);
        byCode.put(CommandCode.STMT_RESET, prepared::reset);
        byCode.put(CommandCode.STMT_SEND_LONG_DATA, prepared::sendLongData);
        byCode.put(CommandCode.STMT_FETCH, prepared::fetch);
        byCode.put(CommandCode.INIT_DB, c -> {
            c.served(RouteKind.LOCAL);
            settings.initDb(c);
        });
        byCode.put(CommandCode.PING, local::ping);
        byCode.put(CommandCode.QUIT, local::quit);
        byCode.put(CommandCode.SET_OPTION, local::setOption);
        byCode.put(CommandCode.RESET_CONNECTION, local::resetConnection);
        byCode.put(CommandCode.FIELD_LIST, c -> local.relayToAnyShard(c, ResponseKind.FIELD_LIST));
        byCode.put(CommandCode.STATISTICS, c -> local.relayToAnyShard(c, ResponseKind.STATISTICS));
        byCode.put(CommandCode.CHANGE_USER, changeUser::start);
        byCode.put(CommandCode.PROCESS_KILL, c -> kills.kill(c, c.payload().getUnsignedIntLE(c.payload().readerIndex() + 1),
                false));
    }

    void handle(Command command) {
        if (command.code() < 0) {
            throw new MalformedPacketException("empty command packet");
        }
        Handler handler = command.command() == null ? null : byCode.get(command.command());
        if (handler == null) {
            unknown(command);
            return;
        }
        if (FENCED_COMMANDS.contains(command.command())) {
            ErrPacket fenced = session.runtime().primaryFence().refusal();
            if (fenced != null) {
                command.error(fenced);
                return;
            }
        }
        if (command.command() != CommandCode.QUERY) {
            // Only a statement may ask for the previous one's warnings.
            session.connections().releaseWarningsConnection();
        }
        handler.handle(command);
    }

    /** COM_CHANGE_USER's login, while it waits for the client's next packet. */
    ChangeUser changeUser() {
        return changeUser;
    }

    static void unknown(Command command) {
        command.error(1047, "08S01", "Unknown command (0x" + Integer.toHexString(command.code()) + ")");
    }
}
