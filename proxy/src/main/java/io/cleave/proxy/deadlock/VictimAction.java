package io.cleave.proxy.deadlock;

import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.StringJoiner;
import java.util.concurrent.TimeUnit;

/**
 * Stops a deadlock victim. On the victim's own event loop, and only if the command that waited is
 * still the one running there: each connection whose statement waits on a shard is told to end
 * that statement with the deadlock error, and a wait in a pool's line is cancelled with it. Then
 * the waiting statements are killed on their shards (by query id where the server can). The
 * victim's session, seeing a deadlock on one of its shards, rolls its transaction back on every
 * shard it holds and answers the client; that lets go of the locks the others wait for.
 */
final class VictimAction {

    private static final Logger log = LoggerFactory.getLogger(VictimAction.class);

    static final int DEADLOCK = 1213;
    static final String DEADLOCK_STATE = "40001";
    static final String DEADLOCK_MESSAGE = "Deadlock found when trying to get lock; try restarting transaction";

    private VictimAction() {
    }

    /** The error the victim's client gets: InnoDB's, so drivers retry it, with the shards named. */
    static ErrPacket error(Snapshot.TransactionView victim, WaitForGraph.Cycle cycle) {
        StringJoiner held = new StringJoiner(", ");
        for (int s = 0; s < victim.threads().length; s++) {
            if (victim.holds(s)) {
                held.add(Integer.toString(s));
            }
        }
        StringJoiner across = new StringJoiner(", ");
        cycle.shards().forEach(s -> across.add(Integer.toString(s)));
        return new ErrPacket(DEADLOCK, DEADLOCK_STATE, DEADLOCK_MESSAGE + " (deadlock across shards " + across
                + "; this transaction was rolled back on shards " + held + ")");
    }

    /**
     * Stops the victim if its waiting command still runs; returns false when it had moved on (its
     * command ended, so it was no victim after all) or could not be reached.
     */
    static boolean stop(Snapshot.TransactionView victim, List<WaitEdge> waits, Snapshot snapshot,
                        ShardLockReader reader, ErrPacket error) {
        TrackedTransaction t = victim.transaction();
        List<WaitEdge> shardWaits = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        for (WaitEdge w : waits) {
            if (w.inLine()) {
                lines.add(w.shard());
            } else {
                shardWaits.add(w);
            }
        }
        Boolean marked = SnapshotTaker.await(t.loop().loop().submit(() -> mark(t, victim.command(), shardWaits, lines,
                error)), System.nanoTime() + TimeUnit.SECONDS.toNanos(2), "the deadlock victim " + t);
        if (marked == null) {
            log.warn("could not reach the deadlock victim {} on its proxy thread", t);
            return false;
        }
        if (!marked) {
            return false;
        }
        for (WaitEdge w : shardWaits) {
            ShardLocks locks = snapshot.shards().get(w.shard());
            ShardLocks.ShardTransaction trx = locks == null ? null : locks.transaction(w.waitingThread());
            reader.kill(w.shard(), w.waitingThread(), trx == null ? null : trx.queryId()).whenComplete((rows, e) -> {
                if (e != null) {
                    // An already finished statement (unknown query id) is fine: its transaction rolls back anyway.
                    log.info("stopping thread {} on shard {} for deadlock victim {}: {}", w.waitingThread(), w.shard(),
                            t, e.getMessage());
                }
            });
        }
        return true;
    }

    /** On the victim's loop: still the same command, still the same connections? Then mark them. */
    private static boolean mark(TrackedTransaction t, long command, List<WaitEdge> shardWaits, List<Integer> lines,
                                ErrPacket error) {
        if (t.command() != command) {
            return false;
        }
        List<BackendConnection> connections = new ArrayList<>();
        for (WaitEdge w : shardWaits) {
            BackendConnection c = t.leg(w.shard());
            if (c == null || c.connectionId() != w.waitingThread() || !c.hasPendingResponses()) {
                return false;
            }
            connections.add(c);
        }
        for (BackendConnection c : connections) {
            c.failRunningStatementAs(error);
        }
        for (int shard : lines) {
            t.loop().pool(shard).cancel(t, new DeadlockVictimException(error));
        }
        return true;
    }
}
