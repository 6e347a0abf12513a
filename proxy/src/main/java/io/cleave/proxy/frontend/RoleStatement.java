package io.cleave.proxy.frontend;

import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.session.SessionSettings;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;

import java.nio.charset.StandardCharsets;

/**
 * SET ROLE: the session's active role, kept by the proxy like its variables. It runs on one shard
 * (which checks the role is granted to the account), the role it made active is read back in the
 * same round trip, and every backend connection that serves the session later takes it on before
 * the session's statement (see {@link SessionSyncStep}).
 */
final class RoleStatement {

    private final Session session;

    RoleStatement(Session session) {
        this.session = session;
    }

    void run(Command command) {
        command.served(RouteKind.SINGLE_SHARD);
        byte[] set = SqlRenderer.render(new SqlTemplate.Original(), command.analysis(), command.values());
        byte[] sql = (new String(set, StandardCharsets.UTF_8) + "; SELECT IFNULL(CURRENT_ROLE(), 'NONE')")
                .getBytes(StandardCharsets.UTF_8);
        SessionSettings[] after = new SessionSettings[1];
        new MultiExchange(new CommandLegs(session, command), false, results -> {
            LegResult leg = results.get(0);
            if (!leg.ok()) {
                command.error(leg.errorPacket());
                return;
            }
            session.settings(after[0]);
            command.ok();
        }).beforeRelease((conn, leg) -> {
            if (!leg.ok() || leg.rows.size() != 1) {
                if (leg.ok()) {
                    leg.error = new ErrPacket(1105, "HY000", "SET ROLE read back " + leg.rows.size() + " rows");
                }
                return;
            }
            after[0] = session.settings().withRole(leg.rows.get(0).string(0));
            conn.sessionState().applied(after[0]);
        }).leg(session.anyShard(), sql).start();
    }
}
