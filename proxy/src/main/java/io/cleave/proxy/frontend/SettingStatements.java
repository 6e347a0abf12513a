package io.cleave.proxy.frontend;

import io.cleave.proxy.accounts.CleaveSchema;
import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.protocol.packet.server.OkPacket;
import io.cleave.proxy.protocol.packet.server.SessionStateChanges;
import io.cleave.proxy.session.Charset;
import io.cleave.proxy.session.SessionSettings;
import io.cleave.proxy.session.TransactionVariables;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.SessionAction;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;
import io.netty.buffer.ByteBuf;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Statements that change the session's settings: SET, SET SESSION TRANSACTION, USE and
 * COM_INIT_DB. The proxy keeps the settings and reproduces them on whichever connection serves the
 * session next: SET runs once on a shard (which validates and evaluates it) and what it set is read
 * back in the same round trip; USE checks the schema exists there. Setting autocommit to a
 * constant needs no round trip.
 */
final class SettingStatements {

    private final Session session;

    SettingStatements(Session session) {
        this.session = session;
    }

    void run(Command command, SessionAction action) {
        if (action instanceof SessionAction.SetVariables set) {
            setVariables(command, set);
        } else if (action instanceof SessionAction.Use use) {
            useSchema(command, use.schema());
        } else {
            TransactionVariables names = session.runtime().transactionVariables();
            runSet(command, statementText(command), List.of(new SessionAction.SystemVariable(names.isolation()),
                    new SessionAction.SystemVariable(names.readOnly())));
        }
    }

    /** Whether the action changes settings (else it is about the transaction). */
    static boolean handles(SessionAction action) {
        return action instanceof SessionAction.SetVariables || action instanceof SessionAction.Use
                || action instanceof SessionAction.SetTransaction st && st.session();
    }

    // ---- SET ---------------------------------------------------------------------------------

    private void setVariables(Command command, SessionAction.SetVariables set) {
        SessionAction.Autocommit only = set.autocommitOnly();
        if (only != null) {
            Boolean on = autocommitValue(only, command.values());
            // Turning autocommit on while it is off commits first (ImplicitCommit): by now no
            // transaction is open. While it is on, an open BEGIN stays open, as on a server.
            if (on != null) {
                session.settings(session.settings().withAutocommit(on));
                command.ok();
                return;
            }
        }
        runSet(command, statementText(command), set.targets());
    }

    /** The constant autocommit value a SET gives, or null when the server must evaluate it. */
    static Boolean autocommitValue(SessionAction.Autocommit only, ParameterValues values) {
        return only.literal() != null ? only.literal() : booleanValue(values, only.slot());
    }

    private static Boolean booleanValue(ParameterValues values, int slot) {
        if (slot < 0 || values.isNull(slot)) {
            return null;
        }
        String v = values.text(slot).strip();
        if (v.equals("1") || v.equalsIgnoreCase("ON") || v.equalsIgnoreCase("TRUE")) {
            return true;
        }
        if (v.equals("0") || v.equalsIgnoreCase("OFF") || v.equalsIgnoreCase("FALSE")) {
            return false;
        }
        return null;
    }

    /**
     * Runs the SET on a shard and, in the same round trip, reads back what it set; records those
     * values in the session (and as that connection's state) and answers OK.
     */
    private void runSet(Command command, byte[] setStatement, List<SessionAction.SetTarget> targets) {
        List<String> readBack = new ArrayList<>();
        for (SessionAction.SetTarget t : targets) {
            if (t instanceof SessionAction.SystemVariable v) {
                readBack.add("@@session." + v.name());
            } else if (t instanceof SessionAction.UserVariable u) {
                readBack.add("@`" + u.name().replace("`", "``") + "`");
            } else if (t instanceof SessionAction.Names) {
                readBack.add("@@session.character_set_client");
                readBack.add("@@session.collation_connection");
                readBack.add("@@session.character_set_results");
            } else {
                readBack.add("@@session.autocommit");
            }
        }
        // LIMIT 1: the SET may have just set sql_select_limit to 0.
        byte[] select = ("SELECT " + String.join(", ", readBack) + " LIMIT 1").getBytes(StandardCharsets.UTF_8);
        SessionSettings before = session.settings();
        SettingsReadBack.run(session, command, setStatement, select,
                (columns, row) -> apply(before, targets, columns, row), after -> {
                    session.settings(after);
                    if (after.autocommit() && !before.autocommit() && !session.transaction().begun()) {
                        session.transaction().end();
                    }
                    command.ok();
                });
    }

    /** The session settings with what the read-back row says the SET established. */
    private SessionSettings apply(SessionSettings settings, List<SessionAction.SetTarget> targets,
                                  List<ResultColumn> columns, TextRow row) {
        int c = 0;
        SessionSettings s = settings;
        TransactionVariables names = session.runtime().transactionVariables();
        for (SessionAction.SetTarget t : targets) {
            if (t instanceof SessionAction.SystemVariable v) {
                s = s.withSystemVariable(names.canonical(v.name()), literal(columns.get(c), row, c));
                c++;
            } else if (t instanceof SessionAction.UserVariable u) {
                s = s.withUserVariable(u.name(), literal(columns.get(c), row, c));
                c++;
            } else if (t instanceof SessionAction.Names) {
                String client = row.string(c);
                String collation = row.string(c + 1);
                String results = row.string(c + 2);
                s = s.withCharset(new Charset(client, collation));
                if (results == null || !results.equalsIgnoreCase(client)) {
                    s = s.withSystemVariable("character_set_results", literal(columns.get(c + 2), row, c + 2));
                }
                c += 3;
            } else {
                s = s.withAutocommit("1".equals(row.string(c)));
                c++;
            }
        }
        return s;
    }

    private String literal(ResultColumn column, TextRow row, int c) {
        return literal(column, row, c, !session.sqlMode().noBackslashEscapes());
    }

    /** A read-back value as a SQL literal for replaying it on other connections. */
    static String literal(ResultColumn column, TextRow row, int c, boolean backslashEscapes) {
        String value = row.string(c);
        if (value == null) {
            return "NULL";
        }
        if (column.type().isInteger() || column.type().isDecimal() || column.type().isFloatingPoint()) {
            return value;
        }
        StringBuilder out = new StringBuilder(value.length() + 2).append('\'');
        for (int i = 0; i < value.length(); i++) {
            char ch = value.charAt(i);
            if (ch == '\'') {
                out.append("''");
            } else if (ch == '\\' && backslashEscapes) {
                out.append("\\\\");
            } else {
                out.append(ch);
            }
        }
        return out.append('\'').toString();
    }

    // ---- USE / COM_INIT_DB -----------------------------------------------------------------

    void initDb(Command command) {
        ByteBuf payload = command.payload();
        String schema = payload.toString(payload.readerIndex() + 1, payload.readableBytes() - 1,
                StandardCharsets.UTF_8);
        useSchema(command, schema);
    }

    private void useSchema(Command command, String schema) {
        if (CleaveSchema.isCleave(schema)) {
            command.refuse(1044, "42000", CleaveSchema.refusal(session.account().account().name().toString()));
            return;
        }
        io.cleave.proxy.protocol.packet.server.ErrPacket refused = RefusedDatabases.refusal(session, schema);
        if (refused != null) {
            command.refuse(refused.errorCode(), refused.sqlState(), refused.message());
            return;
        }
        byte[] sql = ("USE `" + schema.replace("`", "``") + "`").getBytes(StandardCharsets.UTF_8);
        SessionSettings after = session.settings().withSchema(schema);
        new MultiExchange(new CommandLegs(session, command), false, results -> {
            LegResult leg = results.get(0);
            if (!leg.ok()) {
                command.error(leg.errorPacket());
                return;
            }
            session.settings(after);
            OkPacket ok = OkPacket.of(0, 0, session.status(), 0);
            if (session.output().capabilities().sessionTrack()) {
                ok = ok.withSessionState(new SessionStateChanges().schema(schema).toBytes());
            }
            command.ok(ok);
        }).beforeRelease((conn, leg) -> {
            if (leg.ok()) {
                conn.sessionState().applied(after);
            }
        }).leg(session.anyShard(), sql).start();
    }

    private static byte[] statementText(Command command) {
        return SqlRenderer.render(new SqlTemplate.Original(), command.analysis(), command.values());
    }
}
