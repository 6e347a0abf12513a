package io.cleave.proxy.deadlock;

import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.StringJoiner;

/**
 * Writes a {@link DeadlockReport} for a broken cycle, laid out like InnoDB's LATEST DETECTED
 * DEADLOCK: each member with what it holds, the statement that waits and the lock it wants, the
 * member it waits for, then the victim. Members are numbered along the cycle from the victim.
 */
final class ReportWriter {

    private ReportWriter() {
    }

    static DeadlockReport write(WaitForGraph.Cycle cycle, Snapshot snapshot, Snapshot.TransactionView victim,
                                Instant at) {
        List<WaitNode> order = alongCycle(cycle, new WaitNode.Client(victim.transaction()));
        Map<WaitNode, Integer> numbers = new LinkedHashMap<>();
        for (WaitNode n : order) {
            numbers.put(n, numbers.size() + 1);
        }
        List<DeadlockReport.Party> parties = new ArrayList<>();
        for (WaitNode n : order) {
            parties.add(party(n, numbers, cycle, snapshot));
        }
        List<Integer> shards = List.copyOf(cycle.shards());
        StringBuilder text = new StringBuilder();
        text.append("------------------------\nLATEST DETECTED DEADLOCK (across shards ").append(join(shards))
                .append(")\n------------------------\n").append(at).append('\n');
        for (DeadlockReport.Party p : parties) {
            text.append("*** (").append(p.number()).append(") ").append(p.description()).append('\n');
            for (DeadlockReport.Wait w : p.waits()) {
                if (w.lock() == null) {
                    text.append("*** (").append(p.number()).append(") WAITING for a backend connection to shard ")
                            .append(w.shard()).append(", held by (").append(w.waitsFor()).append(")\n");
                } else {
                    text.append("*** (").append(p.number()).append(") WAITING on shard ").append(w.shard())
                            .append(" for ").append(w.lock()).append(", held by (").append(w.waitsFor()).append("):\n")
                            .append(w.statement()).append('\n');
                }
            }
        }
        int victimNumber = numbers.get(new WaitNode.Client(victim.transaction()));
        text.append("*** WE ROLL BACK TRANSACTION (").append(victimNumber).append(") on every shard it holds");
        return new DeadlockReport(at.toString(), shards, parties, victimNumber, text.toString());
    }

    /** The members starting at {@code start}, each followed by one it waits for while that is new; the rest after. */
    private static List<WaitNode> alongCycle(WaitForGraph.Cycle cycle, WaitNode start) {
        List<WaitNode> order = new ArrayList<>();
        WaitNode n = start;
        while (n != null && !order.contains(n)) {
            order.add(n);
            WaitNode next = null;
            for (WaitEdge e : cycle.edgesFrom(n)) {
                if (!order.contains(e.to())) {
                    next = e.to();
                    break;
                }
            }
            n = next;
        }
        for (WaitNode m : cycle.members()) {
            if (!order.contains(m)) {
                order.add(m);
            }
        }
        return order;
    }

    private static DeadlockReport.Party party(WaitNode n, Map<WaitNode, Integer> numbers, WaitForGraph.Cycle cycle,
                                              Snapshot snapshot) {
        List<DeadlockReport.Wait> waits = new ArrayList<>();
        for (WaitEdge e : cycle.edgesFrom(n)) {
            if (e.inLine()) {
                waits.add(new DeadlockReport.Wait(e.shard(), null, null, numbers.get(e.to())));
            } else {
                ShardLocks locks = snapshot.shards().get(e.shard());
                ShardLocks.ShardTransaction t = locks == null ? null : locks.transaction(e.waitingThread());
                waits.add(new DeadlockReport.Wait(e.shard(), StatementText.sanitize(t == null ? null : t.query()),
                        e.lock(), numbers.get(e.to())));
            }
        }
        if (n instanceof WaitNode.Client c) {
            Snapshot.TransactionView v = snapshot.view(c.transaction());
            List<Integer> held = new ArrayList<>();
            for (int s = 0; v != null && s < v.threads().length; s++) {
                if (v.holds(s)) {
                    held.add(s);
                }
            }
            long weight = v == null ? -1 : VictimPolicy.weight(v, snapshot);
            String user = c.transaction().user();
            return new DeadlockReport.Party(numbers.get(n), c.transaction().connectionId(), user,
                    "TRANSACTION of client connection " + c.transaction().connectionId() + " (user " + user
                            + "), holding shards " + join(held) + ", weight " + weight, held, weight, waits);
        }
        if (n instanceof WaitNode.ShardThread t) {
            ShardLocks locks = snapshot.shards().get(t.shard());
            ShardLocks.ShardTransaction trx = locks == null ? null : locks.transaction(t.thread());
            long weight = trx == null ? -1 : trx.weight();
            return new DeadlockReport.Party(numbers.get(n), 0, null, "TRANSACTION of server thread " + t.thread()
                    + " on shard " + t.shard() + " (not a client transaction of this proxy), weight " + weight,
                    List.of(t.shard()), weight, waits);
        }
        WaitNode.PoolLine line = (WaitNode.PoolLine) n;
        StringJoiner holders = new StringJoiner(", ");
        for (WaitEdge e : cycle.edgesFrom(n)) {
            holders.add("(" + numbers.get(e.to()) + ")");
        }
        return new DeadlockReport.Party(numbers.get(n), 0, null, "LINE for a backend connection to shard "
                + line.shard() + " on proxy thread " + line.loop() + ": every connection is held by " + holders,
                List.of(line.shard()), -1, List.of());
    }

    private static String join(List<Integer> shards) {
        StringJoiner j = new StringJoiner(", ");
        for (int s : shards) {
            j.add(Integer.toString(s));
        }
        return j.toString();
    }
}
