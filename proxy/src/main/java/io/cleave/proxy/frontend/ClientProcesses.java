package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.packet.server.ColumnDefinition41;
import io.cleave.router.sql.lex.TokenBuffer;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The proxy's client sessions, for {@code SHOW [FULL] PROCESSLIST} and KILL: each client sees the
 * proxy's clients (their users, hosts and databases, whether a command runs), as a server shows
 * its connections, not the shards' connections; as on a server, only its own user's unless its
 * account has PROCESS.
 */
public final class ClientProcesses {

    private final ConcurrentHashMap<Long, Session> sessions = new ConcurrentHashMap<>();

    void add(Session session) {
        sessions.put(session.connectionId(), session);
    }

    void remove(Session session) {
        sessions.remove(session.connectionId(), session);
    }

    /** The session of connection {@code id}, or null. */
    Session find(long id) {
        return sessions.get(id);
    }

    /** Whether the statement is SHOW [FULL] PROCESSLIST. */
    static boolean asks(TokenBuffer tokens) {
        int i = 0;
        if (!tokens.textEqualsIgnoreCase(i++, "SHOW")) {
            return false;
        }
        if (tokens.textEqualsIgnoreCase(i, "FULL")) {
            i++;
        }
        return tokens.textEqualsIgnoreCase(i, "PROCESSLIST") && (i + 1 >= tokens.size()
                || tokens.type(i + 1) == io.cleave.router.sql.lex.TokenType.EOF);
    }

    /**
     * One row per client session, as a server's SHOW PROCESSLIST has them (the asking one's
     * statement shown): every session for an account with PROCESS, else those of its own user.
     */
    void answer(Session asking, Command command) {
        GlobalPrivileges.of(asking, command, privileges -> answer(asking, command, privileges.hasAny("PROCESS")));
    }

    private void answer(Session asking, Command command, boolean everyone) {
        List<Session> all = new ArrayList<>(sessions.values());
        all.removeIf(s -> !everyone && !s.user().equals(asking.user()));
        all.sort(Comparator.comparingLong(Session::connectionId));
        List<TextRow> rows = new ArrayList<>(all.size());
        for (Session s : all) {
            boolean self = s == asking;
            boolean running = self || s.tracked().commandRunning();
            String schema = s.settings() == null ? null : s.settings().schema();
            rows.add(TextRow.of(new byte[][] {bytes(Long.toString(s.connectionId())), bytes(s.user()), bytes(host(s)),
                    bytes(schema), bytes(running ? "Query" : "Sleep"), bytes("0"), bytes(running ? "" : null),
                    bytes(self ? "SHOW PROCESSLIST" : null), bytes("0.000")}));
        }
        List<ResultColumn> columns = List.of(column("Id", ColumnType.LONGLONG, 63, 21), column("User", 128),
                column("Host", 64), column("db", 64), column("Command", 16), column("Time", ColumnType.LONG, 63, 7),
                column("State", 64), column("Info", 100), column("Progress", ColumnType.NEWDECIMAL, 63, 7));
        command.answer(columns, rows, 0);
    }

    private static String host(Session s) {
        if (io.cleave.proxy.proxyprotocol.ClientEndpoint.of(s.output().channel()) instanceof InetSocketAddress a) {
            return s.clientHost() + ":" + a.getPort();
        }
        return s.clientHost();
    }

    private static byte[] bytes(String s) {
        return s == null ? null : s.getBytes(StandardCharsets.UTF_8);
    }

    private static ResultColumn column(String name, long length) {
        return column(name, ColumnType.VAR_STRING, 45, length);
    }

    private static ResultColumn column(String name, ColumnType type, int collation, long length) {
        return new ResultColumn(new ColumnDefinition41("", "", "", name, "", collation, length, type.code(), 0, 0), null);
    }
}
