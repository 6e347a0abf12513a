package io.cleave.proxy.deadlock;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The global wait-for graph of one {@link Snapshot}: every shard's lock waits, with each server
 * thread a client transaction holds mapped to that transaction's one node, plus the waits in the
 * proxy's pool lines.
 *
 * <p>Which nodes are deadlocked is decided as for AND/OR waits: a node that waits for nothing can
 * go on; a transaction can go on once everything it waits for can (a lock is granted when every
 * holder let go); a pool line moves once any holder of the pool's connections can go on, or at
 * once when some of those connections are held by someone the proxy does not account for. What
 * can never go on is deadlocked, and the strongly connected parts among it are the cycles.
 */
final class WaitForGraph {

    /** A cycle among deadlocked nodes: its members and the waits between them. */
    record Cycle(List<WaitNode> members, List<WaitEdge> edges) {

        /** The shards its lock waits are on (pool lines not counted). */
        Set<Integer> lockShards() {
            Set<Integer> out = new java.util.TreeSet<>();
            for (WaitEdge e : edges) {
                if (!e.inLine()) {
                    out.add(e.shard());
                }
            }
            return out;
        }

        /** Every shard the cycle waits on: for a lock, or for a connection in a pool's line. */
        Set<Integer> shards() {
            Set<Integer> out = new java.util.TreeSet<>();
            for (WaitEdge e : edges) {
                out.add(e.shard());
            }
            return out;
        }

        /** A cycle on one shard is that shard's own to break (InnoDB does at once); the proxy breaks the others. */
        boolean spansShards() {
            return lockShards().size() >= 2 || members.stream().anyMatch(m -> m instanceof WaitNode.PoolLine);
        }

        List<WaitEdge> edgesFrom(WaitNode node) {
            List<WaitEdge> out = new ArrayList<>();
            for (WaitEdge e : edges) {
                if (e.from().equals(node)) {
                    out.add(e);
                }
            }
            return out;
        }
    }

    private final Map<WaitNode, List<WaitEdge>> out = new LinkedHashMap<>();
    private final Set<WaitNode> openLines = new HashSet<>();

    private WaitForGraph() {
    }

    static WaitForGraph of(Snapshot snapshot) {
        WaitForGraph g = new WaitForGraph();
        Map<Long, WaitNode>[] owners = owners(snapshot);
        Set<TrackedTransaction> running = new HashSet<>();
        for (Snapshot.TransactionView v : snapshot.transactions()) {
            if (v.running()) {
                running.add(v.transaction());
            }
        }
        for (ShardLocks locks : snapshot.shards().values()) {
            Map<Long, WaitNode> byThread = owners[locks.shard()];
            for (ShardLocks.LockWait w : locks.waits()) {
                WaitNode from = byThread.getOrDefault(w.waitingThread(), new WaitNode.ShardThread(locks.shard(), w.waitingThread()));
                WaitNode to = byThread.getOrDefault(w.blockingThread(), new WaitNode.ShardThread(locks.shard(), w.blockingThread()));
                boolean idleClient = from instanceof WaitNode.Client c && !running.contains(c.transaction());
                // A client between commands waits for nothing: the shard's view is older than its last answer.
                if (!from.equals(to) && !idleClient) {
                    g.add(new WaitEdge(from, to, locks.shard(), w.waitingThread(), w.lock() == null ? "" : w.lock()));
                }
            }
        }
        for (Snapshot.LineView line : snapshot.lines()) {
            WaitNode.PoolLine node = new WaitNode.PoolLine(line.loop(), line.shard());
            int holders = 0;
            for (Snapshot.TransactionView v : snapshot.transactions()) {
                if (v.loop() == line.loop() && v.holds(line.shard())) {
                    holders++;
                    g.add(new WaitEdge(node, new WaitNode.Client(v.transaction()), line.shard(), 0, null));
                }
            }
            if (line.inUse() > holders) {
                // Someone the proxy does not track (an autocommit statement, a pinned session) will give one back.
                g.openLines.add(node);
            }
            for (TrackedTransaction waiter : line.waiters()) {
                g.add(new WaitEdge(new WaitNode.Client(waiter), node, line.shard(), 0, null));
            }
        }
        return g;
    }

    @SuppressWarnings("unchecked")
    private static Map<Long, WaitNode>[] owners(Snapshot snapshot) {
        int shards = 0;
        for (Snapshot.TransactionView v : snapshot.transactions()) {
            shards = Math.max(shards, v.threads().length);
        }
        for (int s : snapshot.shards().keySet()) {
            shards = Math.max(shards, s + 1);
        }
        Map<Long, WaitNode>[] owners = new Map[shards];
        for (int s = 0; s < shards; s++) {
            owners[s] = new HashMap<>();
        }
        for (Snapshot.TransactionView v : snapshot.transactions()) {
            for (int s = 0; s < v.threads().length; s++) {
                if (v.threads()[s] != 0) {
                    owners[s].put(v.threads()[s], new WaitNode.Client(v.transaction()));
                }
            }
        }
        return owners;
    }

    /**
     * The graph once {@code gone} have ended (victims rolled back): their waits and everything that
     * waited for them are gone too.
     */
    WaitForGraph without(Set<WaitNode> gone) {
        WaitForGraph g = new WaitForGraph();
        for (Map.Entry<WaitNode, List<WaitEdge>> e : out.entrySet()) {
            if (gone.contains(e.getKey())) {
                continue;
            }
            g.out.computeIfAbsent(e.getKey(), k -> new ArrayList<>());
            for (WaitEdge w : e.getValue()) {
                if (!gone.contains(w.to())) {
                    g.add(w);
                }
            }
        }
        g.openLines.addAll(openLines);
        return g;
    }

    private void add(WaitEdge e) {
        out.computeIfAbsent(e.from(), k -> new ArrayList<>()).add(e);
        out.computeIfAbsent(e.to(), k -> new ArrayList<>());
    }

    List<WaitEdge> edgesFrom(WaitNode node) {
        return out.getOrDefault(node, List.of());
    }

    /** The nodes that can never go on as things stand. */
    Set<WaitNode> deadlocked() {
        Set<WaitNode> live = new HashSet<>();
        boolean changed = true;
        while (changed) {
            changed = false;
            for (Map.Entry<WaitNode, List<WaitEdge>> e : out.entrySet()) {
                WaitNode node = e.getKey();
                if (!live.contains(node) && canGoOn(node, e.getValue(), live)) {
                    live.add(node);
                    changed = true;
                }
            }
        }
        Set<WaitNode> stuck = new LinkedHashSet<>(out.keySet());
        stuck.removeAll(live);
        return stuck;
    }

    private boolean canGoOn(WaitNode node, List<WaitEdge> waits, Set<WaitNode> live) {
        if (node instanceof WaitNode.PoolLine) {
            if (openLines.contains(node)) {
                return true;
            }
            for (WaitEdge w : waits) {
                if (live.contains(w.to())) {
                    return true;
                }
            }
            return false;
        }
        for (WaitEdge w : waits) {
            if (!live.contains(w.to())) {
                return false;
            }
        }
        return true;
    }

    /** The cycles among the deadlocked nodes (strongly connected parts with more than one node). */
    List<Cycle> cycles() {
        Set<WaitNode> stuck = deadlocked();
        List<Cycle> cycles = new ArrayList<>();
        for (Set<WaitNode> part : new Components(stuck).parts) {
            if (part.size() < 2) {
                continue;
            }
            List<WaitEdge> edges = new ArrayList<>();
            for (WaitNode n : part) {
                for (WaitEdge e : edgesFrom(n)) {
                    if (part.contains(e.to())) {
                        edges.add(e);
                    }
                }
            }
            cycles.add(new Cycle(List.copyOf(part), edges));
        }
        return cycles;
    }

    /** The cycles the proxy breaks: those that span shards or pass through a pool's line. */
    List<Cycle> spanningCycles() {
        return cycles().stream().filter(Cycle::spansShards).toList();
    }

    /** Tarjan's strongly connected components over the deadlocked nodes, without recursion. */
    private final class Components {
        final List<Set<WaitNode>> parts = new ArrayList<>();
        private final Set<WaitNode> within;
        private final Map<WaitNode, Integer> index = new HashMap<>();
        private final Map<WaitNode, Integer> low = new HashMap<>();
        private final ArrayDeque<WaitNode> stack = new ArrayDeque<>();
        private final Set<WaitNode> onStack = new HashSet<>();
        private int next;

        Components(Set<WaitNode> within) {
            this.within = within;
            for (WaitNode n : within) {
                if (!index.containsKey(n)) {
                    visit(n);
                }
            }
        }

        private void visit(WaitNode root) {
            ArrayDeque<Object[]> frames = new ArrayDeque<>();
            enter(root);
            frames.push(new Object[] {root, 0});
            while (!frames.isEmpty()) {
                Object[] frame = frames.peek();
                WaitNode n = (WaitNode) frame[0];
                List<WaitEdge> edges = edgesFrom(n);
                int i = (Integer) frame[1];
                if (i < edges.size()) {
                    frame[1] = i + 1;
                    WaitNode m = edges.get(i).to();
                    if (!within.contains(m)) {
                        continue;
                    }
                    if (!index.containsKey(m)) {
                        enter(m);
                        frames.push(new Object[] {m, 0});
                    } else if (onStack.contains(m)) {
                        low.put(n, Math.min(low.get(n), index.get(m)));
                    }
                    continue;
                }
                frames.pop();
                if (!frames.isEmpty()) {
                    WaitNode parent = (WaitNode) frames.peek()[0];
                    low.put(parent, Math.min(low.get(parent), low.get(n)));
                }
                if (low.get(n).equals(index.get(n))) {
                    Set<WaitNode> part = new LinkedHashSet<>();
                    WaitNode m;
                    do {
                        m = stack.pop();
                        onStack.remove(m);
                        part.add(m);
                    } while (!m.equals(n));
                    parts.add(part);
                }
            }
        }

        private void enter(WaitNode n) {
            index.put(n, next);
            low.put(n, next);
            next++;
            stack.push(n);
            onStack.add(n);
        }
    }
}
