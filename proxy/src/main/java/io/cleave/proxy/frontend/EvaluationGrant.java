package io.cleave.proxy.frontend;

import io.cleave.proxy.accounts.CleaveSchema;
import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.backend.ShardConnector;
import io.cleave.proxy.backend.ShardLogin;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.server.RowCollector;
import io.cleave.proxy.server.ShardAdmin;
import io.netty.channel.EventLoop;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;

/**
 * Lets a client's own connection create the temporary tables of a read evaluated on one shard,
 * though its account may lack CREATE TEMPORARY TABLES: while the evaluation's statements run on
 * that connection, a connection of the shard account holds the lock named for it, which is what
 * {@code cleave.temporary_table} checks. The shard-account connection is opened for the
 * evaluation alone (outside the pools) and, the lock given back, closed before the client's
 * connection goes back to its pool, so no later statement on it finds the lock held.
 */
final class EvaluationGrant implements MultiExchange.LegGate {

    private final Session session;
    private BackendConnection holder;

    EvaluationGrant(Session session) {
        this.session = session;
    }

    @Override
    public void open(int shard, BackendConnection conn, Consumer<ErrPacket> then) {
        ShardConnector connector = session.runtime().slots().get(shard);
        if (connector == null) {
            then.accept(new ErrPacket(2013, "HY000", "Shard " + shard + " is not part of this Cleave"));
            return;
        }
        EventLoop loop = session.loop().loop();
        String lock = CleaveSchema.evaluationLock(conn.connectionId());
        connector.connect(loop, ShardLogin.SHARD_ACCOUNT, 0).addListener(f -> {
            if (!f.isSuccess()) {
                then.accept(ShardErrors.unavailable(shard, f.cause()));
                return;
            }
            holder = (BackendConnection) f.getNow();
            CompletableFuture<List<ShardAdmin.Row>> rows = new CompletableFuture<>();
            rows.whenComplete((result, failure) -> {
                boolean held = failure == null && !result.isEmpty() && "1".equals(result.get(0).get(0));
                then.accept(held ? null : new ErrPacket(1235, "42000", "the read cannot be evaluated on shard " + shard
                        + " now: the proxy could not take the lock that lets this connection create its temporary"
                        + " tables (" + (failure != null ? failure.getMessage() : "another connection holds it") + ")"));
            });
            holder.send(holder.queryFrame("SELECT GET_LOCK('" + lock + "', 5)"), ResponseKind.RESULT,
                    new RowCollector(rows));
            holder.flush();
        });
    }

    @Override
    public void close(int shard, BackendConnection conn, Runnable then) {
        BackendConnection h = holder;
        holder = null;
        if (h == null) {
            then.run();
            return;
        }
        if (!h.isUsable()) {
            // Its server ends the lock with the connection.
            h.close();
            then.run();
            return;
        }
        CompletableFuture<List<ShardAdmin.Row>> released = new CompletableFuture<>();
        released.whenComplete((result, failure) -> {
            h.close();
            then.run();
        });
        h.send(h.queryFrame("DO RELEASE_LOCK('" + CleaveSchema.evaluationLock(conn.connectionId()) + "')"),
                ResponseKind.RESULT, new RowCollector(released));
        h.flush();
    }
}
