package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ShardConnector;
import io.cleave.proxy.backend.ShardLogin;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.server.RowCollector;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;

import java.util.concurrent.CompletableFuture;

/**
 * KILL [CONNECTION | QUERY] id and COM_PROCESS_KILL: ids are the proxy's own connection ids (the
 * ones CONNECTION_ID() and SHOW PROCESSLIST show). As on a server, a client may end its own user's
 * connections; another user's need CONNECTION ADMIN or SUPER (else 1095). KILL CONNECTION closes
 * the client connection (its transaction rolls back); KILL QUERY stops the statements it is
 * running on the shards (KILL QUERY there, as the shard account) and leaves the connection.
 */
final class Kills {

    private final Session session;

    Kills(Session session) {
        this.session = session;
    }

    /** KILL as a statement: the id is its last number. */
    void run(Command command) {
        TokenBuffer tokens = command.analysis().tokens();
        boolean query = false;
        long id = -1;
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.type(i) == TokenType.IDENTIFIER && tokens.text(i).equalsIgnoreCase("QUERY")) {
                query = true;
            } else if (tokens.type(i) == TokenType.INTEGER) {
                id = Long.parseLong(tokens.text(i));
            } else if (tokens.type(i) == TokenType.PLACEHOLDER && command.values() != null) {
                id = Long.parseLong(command.values().text(0).strip());
            }
        }
        kill(command, id, query);
    }

    void kill(Command command, long id, boolean queryOnly) {
        command.served(RouteKind.LOCAL);
        Session target = session.runtime().processes().find(id);
        if (target == null) {
            command.error(1094, "HY000", "Unknown thread id: " + id);
            return;
        }
        if (target.user().equals(session.user())) {
            end(command, target, queryOnly);
            return;
        }
        GlobalPrivileges.of(session, command, privileges -> {
            if (!privileges.hasAny("CONNECTION ADMIN", "SUPER")) {
                command.error(1095, "HY000", "You are not owner of thread " + id);
                return;
            }
            end(command, target, queryOnly);
        });
    }

    private void end(Command command, Session target, boolean queryOnly) {
        if (!queryOnly) {
            target.output().channel().close();
            if (target == session) {
                command.finishSilently();
                return;
            }
            command.ok();
            return;
        }
        target.loop().loop().execute(() -> {
            for (BackendConnection busy : target.connections().running()) {
                stopOnShard(busy);
            }
        });
        command.ok();
    }

    /** KILL QUERY of the statement {@code busy} runs, on its shard, as the shard account. */
    private void stopOnShard(BackendConnection busy) {
        ShardConnector connector = session.runtime().slots().get(busy.shard());
        if (connector == null) {
            return;
        }
        boolean mariadb = busy.server().version().toLowerCase(java.util.Locale.ROOT).contains("mariadb");
        String kill = (mariadb ? "KILL QUERY ID " : "KILL QUERY ") + busy.connectionId();
        connector.connect(busy.channel().eventLoop(), ShardLogin.SHARD_ACCOUNT, 0).addListener(f -> {
            if (!f.isSuccess()) {
                return;
            }
            BackendConnection admin = (BackendConnection) f.getNow();
            CompletableFuture<java.util.List<io.cleave.proxy.server.ShardAdmin.Row>> done = new CompletableFuture<>();
            done.whenComplete((rows, failure) -> admin.close());
            admin.send(admin.queryFrame(kill), ResponseKind.RESULT, new RowCollector(done));
            admin.flush();
        });
    }
}
