package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.ResultColumn;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.session.SessionSettings;

import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Consumer;

/**
 * A statement that changes the session's settings (SET, SET ROLE), run on one shard (which
 * validates and evaluates it) followed by a SELECT of what it set, in one round trip: the row read
 * back gives the session's new settings, which the connection that ran it then carries exactly.
 */
final class SettingsReadBack {

    private SettingsReadBack() {
    }

    /**
     * Runs {@code statement} and then {@code select} (one row) on the session's shard; {@code read}
     * turns the row into the new settings, {@code then} gets them (the client's error otherwise).
     */
    static void run(Session session, Command command, byte[] statement, byte[] select,
                    BiFunction<List<ResultColumn>, TextRow, SessionSettings> read, Consumer<SessionSettings> then) {
        byte[] head = statement;
        byte[] sql = new byte[head.length + 2 + select.length];
        System.arraycopy(head, 0, sql, 0, head.length);
        sql[head.length] = ';';
        sql[head.length + 1] = ' ';
        System.arraycopy(select, 0, sql, head.length + 2, select.length);
        SessionSettings[] after = new SessionSettings[1];
        new MultiExchange(new CommandLegs(session, command), false, results -> {
            LegResult leg = results.get(0);
            if (!leg.ok()) {
                command.error(leg.errorPacket());
                return;
            }
            then.accept(after[0]);
        }).beforeRelease((conn, leg) -> {
            if (!leg.ok() || leg.rows.size() != 1) {
                if (leg.ok()) {
                    leg.error = new ErrPacket(1105, "HY000", "the settings read back " + leg.rows.size() + " rows");
                }
                return;
            }
            after[0] = read.apply(leg.columns, leg.rows.get(0));
            // The connection now carries exactly the new settings.
            conn.sessionState().applied(after[0]);
        }).leg(session.anyShard(), sql).start();
    }
}
