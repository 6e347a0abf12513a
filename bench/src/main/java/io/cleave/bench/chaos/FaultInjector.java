package io.cleave.bench.chaos;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.bench.exec.ChildProcess;
import io.cleave.bench.home.HomeStatus;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Fires one fault of the schedule at the home in the state it is in: picks what it hits from the
 * fault's draw (a shard among those the map names, keys among those of a shard), runs it (a
 * signal, a vanishing client, a {@code cleave} command), and waits until the home has settled
 * (the daemon answering, every shard of the map running, the proxy answering). A command the
 * daemon refuses (exit 7 refused, 2 not possible now) makes the fault refused.
 */
final class FaultInjector {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration SETTLE = Duration.ofMinutes(5);
    /** Kills of one shard allowed in the supervisor's crash-loop window (5 crashes in 5 minutes stop its restarts). */
    private static final int KILLS_PER_WINDOW = 3;
    private static final long CRASH_WINDOW_MILLIS = 5 * 60_000;

    /** What firing a fault did: injected or refused, and what it hit. */
    record Fired(FaultEvent.Outcome outcome, String detail) {
        static Fired injected(String detail) {
            return new Fired(FaultEvent.Outcome.INJECTED, detail);
        }

        static Fired refused(String detail) {
            return new Fired(FaultEvent.Outcome.REFUSED, detail);
        }
    }

    private final ChaosHome home;
    private final ChaosOptions options;
    private final Bank bank;
    private final VanishingClient vanishing;
    private final RunClock clock;
    private final FaultTimeline timeline;
    private final Map<Integer, Deque<Long>> shardKills = new HashMap<>();

    FaultInjector(ChaosHome home, ChaosOptions options, Bank bank, VanishingClient vanishing, RunClock clock,
                  FaultTimeline timeline) {
        this.home = home;
        this.options = options;
        this.bank = bank;
        this.vanishing = vanishing;
        this.clock = clock;
        this.timeline = timeline;
    }

    /** Fires the fault, waits for the home to settle, and returns the event to log. */
    FaultEvent fire(ScheduledFault f) throws Exception {
        long fired = clock.millis();
        long[] window = f.kind().disruptive() ? timeline.began(fired) : null;
        Fired result;
        try {
            result = switch (f.kind()) {
                case DAEMON_KILL -> daemonKill();
                case DAEMON_STOP -> stop(home.status().daemonPid(), "the daemon", f);
                case SHARD_KILL -> shardKill(f);
                case SHARD_STOP -> shardStop(f);
                case CLIENT_VANISH_STATEMENT -> Fired.injected(vanishing.vanish(f, false));
                case CLIENT_VANISH_COMMIT -> Fired.injected(vanishing.vanish(f, true));
                case MOVE -> move(f);
                case MOVE_CANCEL -> cancel(f);
                case REBALANCE -> rebalance();
                case SCALE_UP -> scale(home.map().shardCount() + 1);
                case SCALE_DOWN -> scale(home.map().shardCount() - 1);
                case SHARD_TABLE -> shardTable(f);
            };
        } catch (SQLException e) {
            result = Fired.refused("the client could not start its transfer: " + e.getMessage());
        }
        String unsettled = home.awaitSettled(SETTLE);
        long settled = clock.millis();
        if (window != null) {
            timeline.settled(window, settled);
        }
        if (unsettled != null) {
            throw new IllegalStateException("the home did not settle within " + SETTLE.toMinutes() + " minutes after "
                + f + ": " + unsettled);
        }
        return new FaultEvent(f.index(), f.kind(), f.atMillis(), fired, clock.wallClock(fired).toString(), result.outcome(),
            result.detail(), settled);
    }

    private Fired daemonKill() throws InterruptedException {
        long pid = home.status().daemonPid();
        home.signal(pid, "KILL");
        ChaosHome.awaitGone(pid, Duration.ofSeconds(30));
        home.restartDaemon();
        return Fired.injected("SIGKILL to daemon pid " + pid + ", started again (pid " + home.status().daemonPid() + ")");
    }

    private Fired stop(long pid, String what, ScheduledFault f) throws InterruptedException {
        long millis = 1_000 + f.pick(1, 5_000);
        home.signal(pid, "STOP");
        try {
            Thread.sleep(millis);
        } finally {
            home.signal(pid, "CONT");
        }
        return Fired.injected(String.format(java.util.Locale.ROOT, "SIGSTOP to %s (pid %d) for %.1f s, then SIGCONT",
            what, pid, millis / 1000.0));
    }

    private Fired shardKill(ScheduledFault f) throws InterruptedException {
        List<HomeStatus.Instance> running = running();
        long now = clock.millis();
        List<HomeStatus.Instance> allowed = new ArrayList<>();
        for (HomeStatus.Instance i : running) {
            Deque<Long> kills = shardKills.computeIfAbsent(i.index(), x -> new ArrayDeque<>());
            while (!kills.isEmpty() && now - kills.peekFirst() > CRASH_WINDOW_MILLIS) {
                kills.removeFirst();
            }
            if (kills.size() < KILLS_PER_WINDOW) {
                allowed.add(i);
            }
        }
        if (allowed.isEmpty()) {
            return Fired.refused("held back: every shard was killed " + KILLS_PER_WINDOW + " times in the last 5 minutes"
                + " (5 crashes there put a shard in the supervisor's crash loop)");
        }
        HomeStatus.Instance victim = allowed.get(f.pick(0, allowed.size()));
        shardKills.get(victim.index()).addLast(now);
        home.signal(victim.pid(), "KILL");
        ChaosHome.awaitGone(victim.pid(), Duration.ofSeconds(30));
        return Fired.injected("SIGKILL to shard " + victim.index() + " (pid " + victim.pid() + ")");
    }

    private Fired shardStop(ScheduledFault f) throws InterruptedException {
        List<HomeStatus.Instance> running = running();
        HomeStatus.Instance victim = running.get(f.pick(0, running.size()));
        return stop(victim.pid(), "shard " + victim.index(), f);
    }

    /** The shards of the map, as the daemon runs them. */
    private List<HomeStatus.Instance> running() {
        int shards = home.map().shardCount();
        return home.status().instances().stream().filter(i -> i.index() < shards && i.state().equals("RUNNING")).toList();
    }

    private Fired move(ScheduledFault f) {
        ShardMapView map = home.map();
        int which = f.pick(0, 100);
        String keyspace = which < 45 ? "branch" : which < 85 || options.warehouses() == 0 ? KvTables.KEYSPACE : "warehouse";
        String keys;
        int from;
        if (keyspace.equals(KvTables.KEYSPACE)) {
            int[] buckets = map.buckets(keyspace);
            int first = f.pick(1, buckets.length);
            from = buckets[first];
            int last = first;
            while (last + 1 < buckets.length && buckets[last + 1] == from && last - first < 7) {
                last++;
            }
            last = first + f.pick(2, last - first + 1);
            keys = "bucket:" + first + (last == first ? "" : "-" + last);
        } else if (keyspace.equals("warehouse")) {
            int w = 1 + f.pick(1, options.warehouses());
            from = map.owner(keyspace, w);
            keys = Integer.toString(w);
        } else {
            List<Integer> branches = bank.branches();
            int start = f.pick(1, branches.size());
            from = map.owner(keyspace, branches.get(start));
            int end = start;
            while (end + 1 < branches.size() && end - start < 7 && map.owner(keyspace, branches.get(end + 1)) == from
                && sameRange(map, branches.get(start), branches.get(end + 1))) {
                end++;
            }
            end = start + f.pick(2, end - start + 1);
            keys = branches.get(start) + (end == start ? "" : "-" + branches.get(end));
        }
        int to = (from + 1 + f.pick(3, map.shardCount() - 1)) % map.shardCount();
        ChildProcess.Result r = home.cleave("move", keyspace, keys, "--to", Integer.toString(to), "--json");
        return outcome(r, () -> "move " + JSON.readTree(r.output()).path("id").asLong() + ": " + keyspace + " " + keys
            + " from shard " + from + " to shard " + to, "move " + keyspace + " " + keys + " to shard " + to);
    }

    /** Whether two keys of a range keyspace fall in one of its ranges (a move's keys must). */
    private static boolean sameRange(ShardMapView map, long a, long b) {
        for (long[] r : map.rangesWithOwners("branch")) {
            if (a >= r[0] && a <= r[1]) {
                return b >= r[0] && b <= r[1];
            }
        }
        return false;
    }

    private Fired cancel(ScheduledFault f) {
        List<JsonNode> underWay = home.movesUnderWay();
        if (underWay.isEmpty()) {
            return Fired.refused("no move under way to cancel");
        }
        JsonNode move = underWay.get(f.pick(0, underWay.size()));
        long id = move.path("id").asLong();
        ChildProcess.Result r = home.cleave("move", "--cancel", Long.toString(id));
        return outcome(r, () -> "cancel of move " + id + " (" + move.path("phase").asText() + ")", "cancel of move " + id
            + " (" + move.path("phase").asText() + ")");
    }

    private Fired rebalance() {
        ChildProcess.Result r = home.cleave("rebalance", "--json");
        if (r.exitCode() == 0) {
            try {
                JsonNode plan = JSON.readTree(r.output());
                if (plan.path("moves").isEmpty()) {
                    return Fired.refused("rebalance: the shards are even, nothing to move");
                }
                return Fired.injected("rebalance: moves " + plan.path("moves"));
            } catch (java.io.IOException e) {
                throw new IllegalStateException("cleave rebalance --json printed no JSON: " + r.output(), e);
            }
        }
        return outcome(r, () -> "rebalance", "rebalance");
    }

    private Fired scale(int to) {
        if (to < options.minShards() || to > options.maxShards()) {
            return Fired.refused("held back: scale to " + to + " shards, outside " + options.minShards() + ".."
                + options.maxShards());
        }
        ChildProcess.Result r = home.cleave("scale", "--shards", Integer.toString(to), "--json");
        return outcome(r, () -> "scale to " + to + " shards", "scale to " + to + " shards");
    }

    private Fired shardTable(ScheduledFault f) {
        String table = KvTables.MOVABLE.get(f.pick(0, KvTables.MOVABLE.size()));
        ShardMapView map = home.map();
        TableRule rule = map.rule(table);
        int choice = f.pick(1, 10);
        List<String> args = new ArrayList<>(List.of("shard-table", Bank.DATABASE + "." + table));
        String what;
        if (choice < 7 && rule instanceof TableRule.Unsharded u) {
            int to = (u.shard() + 1 + f.pick(2, map.shardCount() - 1)) % map.shardCount();
            args.addAll(List.of("--unsharded", Integer.toString(to)));
            what = "to shard " + to;
        } else if (choice < 9) {
            args.addAll(List.of("--keyspace", KvTables.KEYSPACE, "--column", "k"));
            what = "sharded by k on " + KvTables.KEYSPACE;
        } else {
            args.add("--reference");
            what = "to a reference table";
        }
        args.add("--json");
        ChildProcess.Result r = home.cleave(args.toArray(new String[0]));
        String detail = "shard-table " + table + " (" + KvCheck.describe(rule) + ") " + what;
        return outcome(r, () -> detail, detail);
    }

    /** A detail that may fail to build (it parses the command's output). */
    private interface Detail {
        String get() throws Exception;
    }

    /** Exit 0: injected; 7 (refused) or 2 (not possible now): refused; anything else fails the run. */
    private static Fired outcome(ChildProcess.Result r, Detail injected, String what) {
        if (r.exitCode() == 0) {
            try {
                return Fired.injected(injected.get());
            } catch (Exception e) {
                return Fired.injected(what);
            }
        }
        if (r.exitCode() == 7 || r.exitCode() == 2) {
            return Fired.refused(what + ": " + r.lastLines(3).replaceAll("\\s+", " "));
        }
        throw new IllegalStateException(what + " failed with exit " + r.exitCode() + ": " + r.lastLines(10));
    }
}
