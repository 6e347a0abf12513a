package io.cleave.manager.move;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.time.Instant;

/**
 * The daemon's moves: accepts requests (checked by {@link MovePlanner}, journaled before anything
 * happens), runs them one after another on one thread, resumes unfinished ones at start, cancels
 * those not cut over yet, and lists them all.
 */
public final class MoveService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(MoveService.class);

    private final MoveEnvironment env;
    private final MovePlanner planner;
    private final TableMovePlanner tablePlanner;
    private final Map<Long, MoveRecord> live = new LinkedHashMap<>();
    /** Whether a scale runs: an operator's move, rebalance or shard-table waits until it is done. */
    private volatile BooleanSupplier scaling = () -> false;
    /** Whether the proxy is building a global unique key's lookup: rows changing shards meanwhile could be missed. */
    private volatile java.util.function.BooleanSupplier uniqueKeyBuilds = () -> false;
    /** Why a change of the layout is refused now (given what it is), or null: see {@link #refuseLayoutChangesWhen}. */
    private volatile java.util.function.UnaryOperator<String> layoutRefusal = what -> null;
    private final ExecutorService runner = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "mover");
        t.setDaemon(true);
        return t;
    });

    public MoveService(MoveEnvironment env) {
        this.env = env;
        this.planner = new MovePlanner(env.shards(), env.maps());
        this.tablePlanner = new TableMovePlanner(env.shards(), env.maps());
    }

    public MoveEnvironment environment() {
        return env;
    }

    /** Picks up the moves a previous daemon left unfinished, where the journal and the shard map say they are. */
    public synchronized void resume() {
        adoptLeftovers();
        for (MoveRecord r : env.journal().loadAll()) {
            if (r.phase.terminal()) {
                continue;
            }
            if (r.phase != MovePhase.UNDOING && MoveRunner.switched(r, env)) {
                r.phase = MovePhase.CLEANING_UP;
            } else if (r.phase == MovePhase.VERIFYING || r.phase == MovePhase.CUTTING_OVER
                    || r.phase == MovePhase.CLEANING_UP) {
                // What catch-up and verify knew lived in memory: catch up again from the journaled position.
                r.phase = MovePhase.CATCHING_UP;
            }
            r.message = "resumed after a restart";
            env.journal().save(r);
            log.info("move {}: resuming at {}", r.id, r.phase);
            enqueue(r);
        }
    }

    /**
     * From now on, refuses the moves an operator asks for ({@code cleave move}, {@code rebalance},
     * {@code shard-table}) while {@code scaling} says a scale runs. A scale plans its moves from the
     * shards it keeps: a move queued beside them could put keys on a shard it takes away (its map
     * would then name a shard that no longer exists, and the scale could not end) or undo its spread.
     */
    public void refuseWhileScaling(BooleanSupplier scaling) {
        this.scaling = scaling;
    }

    private void refuseIfScaling(String what) {
        if (scaling.getAsBoolean()) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "a scale is under way ('cleave scale --status'): " + what
                    + " once it is done");
        }
    }

    /** Moves are refused while {@code builds} says a global unique key's lookup is being built. */
    public void refuseDuring(java.util.function.BooleanSupplier builds) {
        this.uniqueKeyBuilds = builds;
    }

    private void refuseDuringUniqueKeyBuild() {
        if (uniqueKeyBuilds.getAsBoolean()) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "a global unique key's lookup is being built (CREATE UNIQUE"
                    + " INDEX): rows changing shards meanwhile could be missed; try again once it is done");
        }
    }

    /**
     * From now on every new move (whatever asked for it: an operator, rebalancing, a scale, an import) is refused
     * while {@code refusal}, given what the move is, says why: asked before the move is planned, outside this
     * service's lock (the answer may take a round trip to another home).
     */
    public void refuseLayoutChangesWhen(java.util.function.UnaryOperator<String> refusal) {
        this.layoutRefusal = refusal;
    }

    private void refuseLayoutChange(String what) {
        String refused = layoutRefusal.apply(what);
        if (refused != null) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, refused);
        }
    }

    /**
     * Plans, journals and queues a move; returns it as planned. An operator's move ({@code origin}
     * "cli") is refused while a scale runs; any move while a global unique key's lookup is built, or while
     * {@link #refuseLayoutChangesWhen} says so.
     */
    public MoveRecord start(String keyspace, String keys, int target, String origin) {
        refuseLayoutChange("a move of keys " + keys + " of " + keyspace);
        return startChecked(keyspace, keys, target, origin);
    }

    private synchronized MoveRecord startChecked(String keyspace, String keys, int target, String origin) {
        refuseDuringUniqueKeyBuild();
        refuseOverUnknownMoves();
        if (origin.equals("cli")) {
            refuseIfScaling("move keys");
        }
        MoveRecord r = planner.plan(nextId(), keyspace, keys, target, unended());
        r.origin = origin;
        env.journal().save(r);
        enqueue(r);
        return r.copy();
    }

    /**
     * {@code cleave shard-table}: moves a table that lives on one shard to {@code rule} (sharded by a
     * keyspace's column, a reference table, or another home), online; the rule is kept in the state
     * directory from the cutover on.
     */
    public MoveRecord shardTable(String qualified, io.cleave.router.topology.TableRule rule) {
        refuseIfScaling("give a table a new rule");
        MoveRecord planned = tablePlanner.shardTable(qualified, rule);
        return startTables(planned, 0);
    }

    /** Plans the move of every schema's table {@code table} from {@code source} to {@code rule} (not started). */
    public MoveRecord planRehome(String table, int source, io.cleave.router.topology.TableRule rule) {
        return tablePlanner.rehome(table, source, rule);
    }

    /**
     * Journals and queues a move of whole tables planned elsewhere (import, shard-table, scale), under
     * {@code reserved} when the planner reserved an id (see {@link #reserveId}), else the next one.
     */
    public MoveRecord startTables(MoveRecord planned, long reserved) {
        if (planned.kind != MoveKind.TABLES) {
            throw new IllegalArgumentException("not a move of tables");
        }
        refuseLayoutChange("a move of tables");
        return startTablesChecked(planned, reserved);
    }

    private synchronized MoveRecord startTablesChecked(MoveRecord planned, long reserved) {
        refuseDuringUniqueKeyBuild();
        refuseOverUnknownMoves();
        for (MoveRecord m : unended()) {
            if (m.kind == MoveKind.TABLES) {
                for (TableProgress t : m.tables) {
                    for (TableProgress mine : planned.tables) {
                        if (t.table.equalsIgnoreCase(mine.table)) {
                            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "move " + m.id + " is already moving table "
                                    + t + " (" + m.phase.name().toLowerCase() + ")");
                        }
                    }
                }
            }
        }
        MoveRecord r = planned.copy();
        r.id = reserved > 0 ? reserved : nextId();
        reservedIds.remove(r.id);
        r.created = Instant.now().toString();
        r.target = r.targets.isEmpty() ? -1 : r.targets.get(0);
        env.journal().save(r);
        enqueue(r);
        return r.copy();
    }

    /** An id no move has or will be given, for a planner that must name its move before starting it. */
    public synchronized long reserveId() {
        long id = nextId();
        reservedIds.add(id);
        return id;
    }

    /** Keeps {@code id} for its planner (after a restart, a planner holding a reserved id claims it again). */
    public synchronized void keepReserved(long id) {
        reservedIds.add(id);
    }

    private final java.util.Set<Long> reservedIds = new java.util.HashSet<>();

    /** Journals the clean-up of key moves the map names and no journal records ({@link LeftoverMoves}). */
    private void adoptLeftovers() {
        java.util.Set<Long> known = new java.util.HashSet<>(live.keySet());
        env.journal().loadAll().forEach(r -> known.add(r.id));
        known.addAll(reservedIds);
        try {
            for (long id : LeftoverTableMoves.unknown(env, known)) {
                env.journal().save(LeftoverTableMoves.settle(env, id));
            }
            for (MoveRecord r : LeftoverMoves.adopt(env, known)) {
                log.info("move {}: {} ({})", r.id, r.message, r.what());
                env.journal().save(r);
            }
        } catch (java.sql.SQLException | RuntimeException e) {
            log.warn("moves this home has no record of are not cleaned up: {}", e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /**
     * Refuses every move while the map holds rows of moves this home has no record of: a promoted standby's
     * map carries the ghosts (and frozen tables) of the moves its old primary was running, whose journals
     * stayed there. Another move could reuse such a move's id or copy onto its left-over rows, and its
     * ghosts would then hide or show the wrong rows.
     */
    private void refuseOverUnknownMoves() {
        java.util.Set<Long> unknown = mapMoveIds();
        env.journal().loadAll().forEach(r -> unknown.remove(r.id));
        unknown.removeAll(live.keySet());
        unknown.removeAll(reservedIds);
        if (!unknown.isEmpty()) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "the shard map holds rows of moves " + unknown + " this home"
                    + " has no record of (moves the old primary was running when this home was promoted): their rows"
                    + " stay on two shards, left out of reads, and moves are refused until they are settled. They are"
                    + " settled when the home becomes the primary and at each start of its daemon (see its log when one"
                    + " failed); a scale's move adding shards is not while servers are attached for an import");
        }
    }

    /** The ids of moves the map names (ghosts, tables being copied). */
    private java.util.Set<Long> mapMoveIds() {
        io.cleave.router.shardmap.ShardMap map = env.maps().current();
        java.util.Set<Long> ids = new java.util.TreeSet<>(map.movingTables().values());
        map.ghosts().forEach(g -> ids.add(g.moveId()));
        return ids;
    }

    private long nextId() {
        long id = env.journal().nextId();
        for (long m : mapMoveIds()) {
            id = Math.max(id, m + 1);
        }
        for (long r : reservedIds) {
            id = Math.max(id, r + 1);
        }
        for (long l : live.keySet()) {
            id = Math.max(id, l + 1);
        }
        return id;
    }

    /**
     * The moves that have not ended: one that just ended stays among the live ones until its runner
     * returns, and a move asked for right after it (as {@code --wait} allows) must not conflict with it.
     */
    private List<MoveRecord> unended() {
        List<MoveRecord> out = new ArrayList<>();
        for (MoveRecord m : live.values()) {
            if (!m.phase.terminal()) {
                out.add(m);
            }
        }
        return out;
    }

    /** Whether any move has not ended. */
    public synchronized boolean busy() {
        return !unended().isEmpty();
    }

    private void enqueue(MoveRecord r) {
        live.put(r.id, r);
        runner.execute(() -> {
            try {
                new MoveRunner(r, env).run();
            } catch (RuntimeException e) {
                log.error("move {} stopped", r.id, e);
            } finally {
                synchronized (this) {
                    if (r.phase.terminal()) {
                        live.remove(r.id);
                    }
                }
            }
        });
    }

    /** Every move, oldest first (running ones as they are now). */
    public synchronized List<MoveRecord> list() {
        Map<Long, MoveRecord> all = new LinkedHashMap<>();
        for (MoveRecord r : env.journal().loadAll()) {
            all.put(r.id, r);
        }
        for (MoveRecord r : live.values()) {
            all.put(r.id, r.copy());
        }
        return new ArrayList<>(all.values());
    }

    /** The move {@code id}, if it exists. */
    public synchronized java.util.Optional<MoveRecord> find(long id) {
        MoveRecord r = live.get(id);
        if (r != null) {
            return java.util.Optional.of(r.copy());
        }
        for (MoveRecord j : env.journal().loadAll()) {
            if (j.id == id) {
                return java.util.Optional.of(j);
            }
        }
        return java.util.Optional.empty();
    }

    /**
     * Waits until move {@code id} ended; returns it as it ended.
     *
     * @throws InterruptedException when {@code closing} says so meanwhile (the daemon stops)
     */
    public MoveRecord awaitEnd(long id, java.util.function.BooleanSupplier closing) throws InterruptedException {
        MoveRecord m = get(id);
        while (!m.phase.terminal()) {
            if (closing.getAsBoolean()) {
                throw new InterruptedException("closing");
            }
            TimeUnit.MILLISECONDS.sleep(200);
            m = get(id);
        }
        return m;
    }

    public synchronized MoveRecord get(long id) {
        MoveRecord r = live.get(id);
        if (r != null) {
            return r.copy();
        }
        for (MoveRecord j : env.journal().loadAll()) {
            if (j.id == id) {
                return j;
            }
        }
        throw new MoveRefused(MoveRefused.Kind.NOT_FOUND, "there is no move " + id + " (see 'cleave moves')");
    }

    /** Stops a move that has not cut over and deletes its copy from the target. */
    public synchronized MoveRecord cancel(long id) {
        MoveRecord r = live.get(id);
        // A move stays live until its runner's thread has let it go, a moment after its phase
        // became terminal: an ended move is refused whether or not that thread is done.
        if (r == null || r.phase.terminal()) {
            MoveRecord ended = r != null ? r : get(id);
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "move " + id + " has ended (" + ended.phase.name()
                    .toLowerCase() + "): nothing to cancel");
        }
        if (r.phase.switched()) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "move " + id + " has cut over: " + r.what() + " are on shard"
                    + (r.targets.size() > 1 ? "s " + r.targets : " " + r.target) + " now and only its cleanup is left"
                    + (r.kind == MoveKind.KEYS ? "; move them back with another 'cleave move'" : ""));
        }
        r.cancelRequested = true;
        if (r.phase == MovePhase.PLANNED) {
            // Not started: nothing to undo but the journal entry.
            r.phase = MovePhase.UNDOING;
        }
        return r.copy();
    }

    /** Where the rows are, per shard and per key range or bucket run (exact counts when asked). */
    public ShardsReport shards(boolean exact) {
        try {
            return new ShardSizes(env.shards(), env.maps()).report(exact, active())
                    .withUniqueKeys(io.cleave.manager.unique.LookupSizes.measure(env.shards(),
                            env.maps().topology().defaultShard(), env.maps().current().shardCount(), exact));
        } catch (java.sql.SQLException e) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "cannot measure the shards: " + e.getMessage());
        }
    }

    /** Plans moves that even the shards out; unless {@code dryRun}, queues them (refused while a scale runs). */
    public RebalancePlan rebalance(boolean byBytes, boolean dryRun) {
        if (!dryRun) {
            refuseIfScaling("rebalance");
        }
        return rebalance(byBytes, dryRun, "rebalance");
    }

    /** A scale's last step: the rebalancer's moves by rows, queued as the scale's own. */
    public RebalancePlan spread() {
        return rebalance(false, false, "scale");
    }

    private RebalancePlan rebalance(boolean byBytes, boolean dryRun, String origin) {
        RebalancePlan plan;
        try {
            plan = new Rebalancer(env.shards(), env.maps()).plan(byBytes);
        } catch (java.sql.SQLException e) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "cannot measure the shards: " + e.getMessage());
        }
        if (dryRun || plan.steps().isEmpty()) {
            return plan;
        }
        List<Long> ids = new ArrayList<>();
        for (RebalancePlan.Step step : plan.steps()) {
            ids.add(start(step.keyspace(), step.keys(), step.to(), origin).id);
        }
        return new RebalancePlan(plan.by(), plan.steps(), plan.before(), plan.after(), ids);
    }

    /**
     * Starts the moves that take every key and table off the shards {@code keep} and above (a scale
     * down); views homed there get their new home at once. Returns the moves' ids, in the order they run.
     */
    public List<Long> drain(int keep) {
        List<Drainer.Step> steps;
        try {
            steps = new Drainer(env.shards(), env.maps()).plan(keep);
        } catch (java.sql.SQLException e) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "cannot measure the shards: " + e.getMessage());
        }
        List<Long> ids = new ArrayList<>();
        for (Drainer.Step step : steps) {
            if (step instanceof Drainer.KeyStep k) {
                ids.add(start(k.keyspace(), k.keys(), k.to(), "scale").id);
            } else {
                Drainer.TableStep t = (Drainer.TableStep) step;
                io.cleave.router.topology.TableRule rule = new io.cleave.router.topology.TableRule.Unsharded(t.table(), t.to());
                if (t.rows()) {
                    MoveRecord planned = planRehome(t.table(), t.from(), rule);
                    planned.origin = "scale";
                    ids.add(startTables(planned, 0).id);
                } else {
                    env.maps().update(m -> m.withRule(rule));
                }
            }
        }
        return ids;
    }

    /** Replaces the move hooks (tests pause a move at a point); only when the daemon was built with switchable hooks. */
    public void testHooks(MoveHooks hooks) {
        ((MoveHooks.Switchable) env.hooks()).set(hooks);
    }

    /** How many moves are in each phase (for /metrics). */
    public synchronized Map<MovePhase, Integer> phases() {
        Map<MovePhase, Integer> out = new EnumMap<>(MovePhase.class);
        for (MoveRecord r : live.values()) {
            out.merge(r.phase, 1, Integer::sum);
        }
        return out;
    }

    public synchronized List<MoveRecord> active() {
        List<MoveRecord> out = new ArrayList<>();
        for (MoveRecord r : live.values()) {
            out.add(r.copy());
        }
        return out;
    }

    @Override
    public void close() {
        runner.shutdownNow();
        try {
            runner.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
