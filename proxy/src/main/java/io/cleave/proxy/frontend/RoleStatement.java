package io.cleave.proxy.frontend;

import io.cleave.proxy.metrics.RouteKind;
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

    private static final byte[] CURRENT_ROLE = "SELECT IFNULL(CURRENT_ROLE(), 'NONE')".getBytes(StandardCharsets.US_ASCII);

    private final Session session;

    RoleStatement(Session session) {
        this.session = session;
    }

    void run(Command command) {
        command.served(RouteKind.SINGLE_SHARD);
        byte[] set = SqlRenderer.render(new SqlTemplate.Original(), command.analysis(), command.values());
        SettingsReadBack.run(session, command, set, CURRENT_ROLE,
                (columns, row) -> session.settings().withRole(row.string(0)), after -> {
                    session.settings(after);
                    command.ok();
                });
    }
}
