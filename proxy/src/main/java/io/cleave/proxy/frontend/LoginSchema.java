package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.protocol.packet.server.ErrPacket;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;

/**
 * The database a client logs in with must exist and be one its account may use (the check runs as
 * the account), as a server checks at the handshake: a
 * connection of the session is brought to its settings (COM_INIT_DB of that database, which the
 * shard refuses with 1049 when there is none) and then kept for the session's first statement.
 * A shard that cannot answer does not stop the login: its first statement will tell.
 */
final class LoginSchema extends SessionLegs {

    static final int UNKNOWN_DATABASE = 1049;
    /** The client's account may not use the database (ER_DBACCESS_DENIED_ERROR). */
    static final int DATABASE_ACCESS_DENIED = 1044;

    /** Whether the shard's answer refuses the login, as a server refuses a database that is not there or not the account's. */
    private static boolean refuses(ErrPacket error) {
        return error != null && (error.errorCode() == UNKNOWN_DATABASE || error.errorCode() == DATABASE_ACCESS_DENIED);
    }

    private static final byte[] NOTHING = "DO 0".getBytes(StandardCharsets.US_ASCII);

    private LoginSchema(Session session) {
        super(session);
    }

    /**
     * Calls {@code then} with null when the session may start in {@code database} (none, or one
     * that exists and its account may use), else with the refusal the client gets: the cleave
     * schema is refused outright, any other database as the shard answers for the account.
     * <p>
     * A fenced home refuses every login (and COM_CHANGE_USER), naming the new primary, before it
     * asks a shard anything: its shards' connections may all be held by commits that wait for the
     * lost standby's acknowledgement, and a login waiting for one would get no answer at all. A
     * load balancer's login check sees the refusal too.
     */
    static void admit(Session session, String database, Consumer<ErrPacket> then) {
        ErrPacket fenced = session.runtime().primaryFence().refusal();
        ErrPacket refused = RefusedDatabases.refusal(session, database);
        if (fenced != null) {
            then.accept(fenced);
        } else if (database == null || database.isEmpty()) {
            then.accept(null);
        } else if (io.cleave.proxy.accounts.CleaveSchema.isCleave(database)) {
            then.accept(new ErrPacket(DATABASE_ACCESS_DENIED, "42000", io.cleave.proxy.accounts.CleaveSchema.refusal(
                    session.account().account().name().toString())));
        } else if (refused != null) {
            // An import a promotion cut short: its rows are on the source only (RefusedDatabases).
            then.accept(refused);
        } else {
            check(session, error -> then.accept(refuses(error) ? error : null));
        }
    }

    /**
     * Every shard has every database (DDL runs on all of them): the default shard is asked, or,
     * while it is down, a shard that is up, so that a shard that cannot start keeps no client of
     * the others out.
     */
    private static int shardToAsk(Session session) {
        int shard = session.runtime().topology().defaultShard();
        return session.runtime().availability().isUp(shard) ? shard : session.loop().nextAnyShard();
    }

    /** Calls {@code then} with null once the session's database is known to exist, else with the error. */
    private static void check(Session session, Consumer<ErrPacket> then) {
        new MultiExchange(new LoginSchema(session), false, results -> {
            LegResult leg = results.get(0);
            then.accept(leg.ok() ? null : leg.errorPacket());
        }).leg(shardToAsk(session), NOTHING).start();
    }

    @Override
    public BackendConnection connectionFor(int shard) {
        return session.connections().connectionFor(shard, false);
    }

    @Override
    public List<String> preamble(int shard, boolean startsTransaction) {
        return null;
    }

    @Override
    public void releaseLeg(int shard, BackendConnection conn, boolean ok) {
        session.connections().settle(shard, conn, false);
    }
}
