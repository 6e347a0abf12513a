package io.cleave.proxy.frontend;

import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;
import io.cleave.router.sql.lex.TokenBuffer;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * SHOW DATABASES (SHOW SCHEMAS): the default shard's answer without the proxy's own schema
 * ({@code cleave}: decision records, sequences), which is no part of the database the application
 * sees. The statement runs as written (its LIKE or WHERE included), so the columns are the server's.
 */
final class SchemaListing {

    static final String HIDDEN = "cleave";

    private SchemaListing() {
    }

    /** Whether the statement is SHOW DATABASES or SHOW SCHEMAS. */
    static boolean asks(TokenBuffer tokens) {
        return tokens.size() >= 2 && tokens.textEqualsIgnoreCase(0, "SHOW")
                && (tokens.textEqualsIgnoreCase(1, "DATABASES") || tokens.textEqualsIgnoreCase(1, "SCHEMAS"));
    }

    static void answer(Session session, Command command, int shard) {
        command.served(RouteKind.SINGLE_SHARD);
        byte[] sql = SqlRenderer.render(new SqlTemplate.Original(), command.analysis(), command.values());
        new MultiExchange(new CommandLegs(session, command), false, results -> {
            LegResult leg = results.get(0);
            if (!leg.ok()) {
                command.error(leg.errorPacket());
                return;
            }
            List<TextRow> rows = new ArrayList<>(leg.rows.size());
            for (TextRow row : leg.rows) {
                if (row.isNull(0) || !HIDDEN.equals(new String(row.bytes(0), StandardCharsets.UTF_8))) {
                    rows.add(row);
                }
            }
            command.answer(leg.columns, rows, leg.warnings);
        }).leg(shard, sql).start();
    }
}
