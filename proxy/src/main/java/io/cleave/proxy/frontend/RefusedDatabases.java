package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.router.plan.SchemaMentions;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.util.Map;

/**
 * Databases the shard map refuses by name ({@link ShardMap#refusedDatabases()}): an import a promotion cut short
 * before its cutover, whose rows are on its source only. A client cannot log in to one, USE it, stay in it, or name it
 * in a statement (qualifying a table, as SHOW ... FROM, CREATE DATABASE); DROP DATABASE of it runs (it lifts the
 * refusal). Each gets 1044 (ER_DBACCESS_DENIED_ERROR, 42000), as a server refuses a database the account may not use,
 * with the reason. Costs one empty-map check per statement while no database is refused.
 */
final class RefusedDatabases {

    static final int ACCESS_DENIED = 1044;
    static final String STATE = "42000";

    private RefusedDatabases() {
    }

    /** The error for {@code session} using {@code database} (at its login, in USE), or null when it is served. */
    static ErrPacket refusal(Session session, String database) {
        Map<String, String> refused = session.runtime().shardMaps().current().refusedDatabases();
        if (refused.isEmpty() || database == null) {
            return null;
        }
        String reason = refused.get(database);
        return reason == null ? null : new ErrPacket(ACCESS_DENIED, STATE, message(session, database, reason));
    }

    /** The error for a statement of {@code session} that names a refused database or runs in one, or null. */
    static ErrPacket refusal(Session session, ShardMap map, TokenBuffer tokens) {
        Map<String, String> refused = map.refusedDatabases();
        if (refused.isEmpty()) {
            return null;
        }
        String schema = session.settings().schema();
        String named = SchemaMentions.first(tokens, refused::containsKey, true);
        if (named == null && schema != null && refused.containsKey(schema) && !leaves(tokens, schema)) {
            // In the refused database (its session began before the refusal).
            named = schema;
        }
        return named == null ? null : new ErrPacket(ACCESS_DENIED, STATE, message(session, named, refused.get(named)));
    }

    /**
     * Whether the statement leaves {@code schema}: a USE (of a database served: the check before refuses the others)
     * or its DROP DATABASE (the only mention of it the check before lets through).
     */
    private static boolean leaves(TokenBuffer tokens, String schema) {
        return tokens.size() > 0 && tokens.type(0) == TokenType.KEYWORD && tokens.text(0).equalsIgnoreCase("USE")
                || SchemaMentions.first(tokens, schema::equals, false) != null;
    }

    private static String message(Session session, String database, String reason) {
        return "Access denied for user " + session.account().account().name() + " to database '" + database + "': "
                + reason;
    }
}
