package io.cleave.manager.scale;

import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.daemon.ShardRegistry;
import io.cleave.manager.instance.HostPlan;
import io.cleave.manager.instance.PlanRefusedException;
import io.cleave.manager.move.MapUpdates;
import io.cleave.manager.move.MovePhase;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.move.MoveRefused;
import io.cleave.manager.move.MoveService;
import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.move.Steps;
import io.cleave.router.shardmap.ShardMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * {@code cleave scale --shards N}: changes how many shards the home runs while clients keep
 * working, as a plan of moves. Up: the new instances are initialized and started, every buffer
 * pool is resized online to its share, the new shards get the schema and the reference tables
 * (the move whose cutover adds them to the map), then buckets move until the shards hold even
 * shares. Down: every key and table moves off the shards that go, the map stops naming them, they
 * stop (datadirs kept until {@code --purge}), the remaining buffer pools grow. Each phase is
 * journaled in {@code state/scale.json} and resumed after a restart; from then on the state, not the config, says how many
 * shards there are.
 */
public final class ScaleService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ScaleService.class);

    private final io.cleave.manager.home.JsonFile<ScaleRecord> journal;
    private final MoveService moves;
    private final MapUpdates maps;
    private final ShardLinks links;
    private final ShardRegistry registry;
    private final Instances instances;
    private final Steps steps;
    private volatile ScaleRecord current;
    private volatile Gate refusal = (from, to) -> null;
    private volatile Release release = shard -> { };

    /** Why a scale from {@code from} to {@code to} shards is refused now (409), or null. */
    @FunctionalInterface
    public interface Gate {
        String refusal(int from, int to);
    }

    /**
     * What a shard a scale down takes away waits for once the map no longer names it, before it stops (a standby's
     * replica of it letting go).
     */
    @FunctionalInterface
    public interface Release {
        void await(int shard) throws InterruptedException;
    }

    /** {@code meters}: where the scale's state and moves are published (/metrics). */
    public ScaleService(Path stateDir, MoveService moves, ShardRegistry registry, Instances instances,
                        io.micrometer.core.instrument.MeterRegistry meters) {
        this.journal = new io.cleave.manager.home.JsonFile<>(stateDir.resolve("scale.json"), ScaleRecord.class);
        this.moves = moves;
        this.maps = moves.environment().maps();
        this.links = moves.environment().shards();
        this.registry = registry;
        this.instances = instances;
        this.current = journal.load().orElse(null);
        this.steps = new Steps("scaler", this::step, this::failed);
        for (ScalePhase phase : ScalePhase.values()) {
            io.micrometer.core.instrument.Gauge.builder("cleave_scale_state", this,
                            x -> x.current != null && x.current.phase == phase ? 1 : 0)
                    .tag("state", phase.name().toLowerCase()).description("The last scale's state: 1 for the one it is in")
                    .register(meters);
        }
        for (String kind : new String[] {"started", "ended"}) {
            io.micrometer.core.instrument.Gauge.builder("cleave_scale_moves", this, x -> x.moveCount(kind.equals("ended")))
                    .tag("kind", kind).description("Moves the last scale started, and those of them that ended")
                    .register(meters);
        }
        io.micrometer.core.instrument.Gauge.builder("cleave_shards", maps, m -> m.current().shardCount())
                .description("Local shards the shard map names").register(meters);
    }

    private double moveCount(boolean ended) {
        ScaleRecord r = current;
        if (r == null) {
            return 0;
        }
        return ended ? r.moves.stream().filter(id -> moves.find(id).map(m -> m.phase.terminal()).orElse(false)).count()
                : r.moves.size();
    }

    /** Whether a scale has not ended (the daemon then starts the shards it had started too). */
    public boolean running() {
        ScaleRecord r = current;
        return r != null && r.phase != ScalePhase.DONE && r.phase != ScalePhase.FAILED;
    }

    /** Goes on with a scale a previous daemon left unfinished (after the proxy started). */
    public synchronized void resume() {
        if (running()) {
            moves.keepReserved(current.addingMove);
            if (current.up() && (current.phase == ScalePhase.RESIZING || current.phase == ScalePhase.ADDING)
                    && maps.current().shardCount() < current.to) {
                // The new shards are not part of the map yet: this daemon started without them.
                current.phase = ScalePhase.STARTING;
            }
            log.info("scale from {} to {} shards: resuming at {}", current.from, current.to, current.phase);
            steps.go();
        }
    }

    /** Refuses a scale (409) when {@code gate} names why (a standby that cannot follow it). */
    public void refuseWhen(Gate gate) {
        this.refusal = gate;
    }

    /** Has shards that a scale down takes away wait for {@code release} before they stop. */
    public void releaseWith(Release release) {
        this.release = release;
    }

    /**
     * The shards the last scale, a scale down, took away and the current map no longer names (empty during its
     * drain, and once a later scale up runs). A standby lets its replicas of them go.
     */
    public List<Integer> retired() {
        ScaleRecord r = current;
        if (r == null || r.up()) {
            return List.of();
        }
        int named = maps.current().shardCount();
        return java.util.stream.IntStream.range(Math.max(r.to, named), r.from).boxed().toList();
    }

    /** Plans the change (refused as a whole when it cannot work) and starts it. */
    public synchronized ScaleStatus start(int to) {
        ScaleRecord r = current;
        ShardMap map = maps.current();
        String refused = refusal.refusal(r != null && r.phase == ScalePhase.FAILED && r.to == to ? r.from
                : map.shardCount(), to);
        if (refused != null) {
            throw conflict(refused);
        }
        if (running()) {
            throw conflict("a scale from " + r.from + " to " + r.to + " shards is " + state(r) + ": wait for it ('cleave"
                    + " scale --status')");
        }
        if (r != null && r.phase == ScalePhase.FAILED && r.to == to) {
            r.phase = r.up() ? ScalePhase.STARTING : ScalePhase.DRAINING;
            r.message = "going on after: " + r.message;
            journal.save(r);
            steps.go();
            return status();
        }
        int from = map.shardCount();
        if (to == from) {
            throw bad("the home has " + from + " shards already");
        }
        if (to > from && !map.refusedDatabases().isEmpty()) {
            // Their tables are set aside (HeldTables): a new shard could not be given the views and routines that
            // name them, nor would it hold the tables an import run again puts back.
            throw conflict("database(s) " + String.join(", ", new java.util.TreeSet<>(map.refusedDatabases().keySet()))
                    + " refused (an import cut short by a failover, see 'cleave status'): import again or drop them"
                    + " before adding shards");
        }
        if (to < 1 || to > io.cleave.proxy.server.ShardSlots.CAPACITY) {
            throw bad("a home has 1 to " + io.cleave.proxy.server.ShardSlots.CAPACITY + " shards, not " + to);
        }
        int defaultShard = maps.topology().defaultShard();
        if (to <= defaultShard) {
            throw bad("shard " + defaultShard + " is the default shard (sharding.default_shard), so at least "
                    + (defaultShard + 1) + " shards stay");
        }
        if (!map.attached().isEmpty()) {
            throw conflict(map.attached().get(0).label() + " is attached for an import: scale once the import is done");
        }
        if (moves.busy()) {
            throw conflict("moves are under way ('cleave moves'): scale once they are done");
        }
        if (to < from) {
            String lookups = lookupsBeyond(to, defaultShard);
            if (lookups != null) {
                throw bad(lookups);
            }
        }
        HostPlan plan;
        try {
            plan = instances.plan(to);
        } catch (PlanRefusedException e) {
            throw bad(e.getMessage());
        }
        if (to > from) {
            try {
                for (io.cleave.manager.move.TableProgress t : NewShards.referenceCopies(links, maps, from, to).tables) {
                    if (t.primaryKey.isEmpty()) {
                        throw bad("reference table " + t + " has no primary key: its rows are copied to the new shards"
                                + " and checked by it; add one first");
                    }
                }
            } catch (SQLException e) {
                throw conflict("cannot read the reference tables on shard 0: " + e.getMessage());
            }
        }
        try {
            String triggers = ScaleTriggers.refusal(links, maps.routing(), from, to);
            if (triggers != null) {
                throw bad(triggers);
            }
        } catch (SQLException e) {
            throw conflict("cannot read the triggers of the tables a scale writes: " + e.getMessage());
        }
        ScaleRecord next = new ScaleRecord();
        next.from = from;
        next.to = to;
        next.phase = to > from ? ScalePhase.STARTING : ScalePhase.DRAINING;
        next.bufferPoolBytes = plan.instances().get(0).bufferPoolBytes();
        next.addingMove = to > from ? moves.reserveId() : 0;
        next.started = Instant.now().toString();
        journal.save(next);
        current = next;
        log.info("scale from {} to {} shards ({} bytes of buffer pool each)", from, to, next.bufferPoolBytes);
        steps.go();
        return status();
    }

    /** One step of the plan, from where its journal says it stands; false once it ended. */
    private boolean step() throws Exception {
        ScaleRecord r = current;
        switch (r.phase) {
            case STARTING -> startInstances(r);
            case RESIZING -> resize(r);
            case ADDING -> add(r);
            case SPREADING -> spread(r);
            case DRAINING -> drain(r);
            case SHRINKING -> shrink(r);
            case DONE, FAILED -> {
                return false;
            }
        }
        return true;
    }

    private void failed(Exception e) {
        ScaleRecord r = current;
        r.message = "paused: " + e.getMessage() + " (trying again)";
        log.warn("scale ({}): {}", r.phase, e.getMessage(), e);
        journal.save(r);
    }

    private void advance(ScaleRecord r, ScalePhase next) {
        r.phase = next;
        r.message = null;
        if (next == ScalePhase.DONE) {
            r.ended = Instant.now().toString();
            log.info("scale from {} to {} shards done", r.from, r.to);
        }
        journal.save(r);
    }

    /** Up: the new instances run and the proxy and mover reach them; the running ones' my.cnf say the new count. */
    private void startInstances(ScaleRecord r) throws InterruptedException {
        HostPlan plan = instances.plan(r.to);
        for (int i = 0; i < r.from; i++) {
            instances.rewrite(plan.instances().get(i));
        }
        for (int i = r.from; i < r.to; i++) {
            ShardEndpoint shard = instances.start(plan.instances().get(i));
            registry.add(shard);
        }
        advance(r, ScalePhase.RESIZING);
    }

    /** Every shard's buffer pool to its share of the total, online; AUTO_INCREMENT steps by the new count. */
    private void resize(ScaleRecord r) throws SQLException, InterruptedException {
        if (!r.up()) {
            HostPlan plan = instances.plan(r.to);
            for (int i = 0; i < r.to; i++) {
                instances.rewrite(plan.instances().get(i));
            }
        }
        for (int i = 0; i < r.to; i++) {
            try (Connection c = links.open(i); Statement s = c.createStatement()) {
                long size = BufferPools.resize(c, r.bufferPoolBytes);
                s.execute("SET GLOBAL auto_increment_increment = " + r.to);
                instances.resized(i, size);
            }
        }
        log.info("scale: every shard's buffer pool is {} bytes now", r.bufferPoolBytes);
        advance(r, r.up() ? ScalePhase.ADDING : ScalePhase.SPREADING);
    }

    /**
     * Up: the new shards get the schema, then the reference tables' rows in a move whose cutover
     * publishes the new shard count. DDL waits meanwhile (the new shards would miss it).
     */
    private void add(ScaleRecord r) throws SQLException, InterruptedException {
        if (maps.current().shardCount() < r.to) {
            MoveRecord m = moves.find(r.addingMove).orElse(null);
            if (m == null) {
                maps.update(map -> map.withMovingTables(List.of(ShardMap.EVERY_TABLE), r.addingMove));
                NewShards.copySchema(links, r.from, r.to);
                m = moves.startTables(NewShards.referenceCopies(links, maps, r.from, r.to), r.addingMove);
                record(r, m.id);
            }
            if (!await(m.id)) {
                fail(r, "move " + m.id + " adding shards " + r.from + "-" + (r.to - 1) + " failed: " + moves.get(m.id).message);
                maps.update(map -> map.withoutMovingTables(r.addingMove));
                return;
            }
        }
        advance(r, ScalePhase.SPREADING);
    }

    /** Buckets and ranges move until the shards hold even shares (the rebalancer's plan). */
    private void spread(ScaleRecord r) throws InterruptedException {
        awaitIdle();
        for (long id : moves.spread().moves()) {
            record(r, id);
            if (!await(id)) {
                fail(r, "move " + id + " failed: " + moves.get(id).message);
                return;
            }
        }
        advance(r, ScalePhase.DONE);
    }

    /** Down: every key and table off the shards that go. */
    private void drain(ScaleRecord r) throws InterruptedException {
        awaitIdle();
        List<Long> ids = moves.drain(r.to);
        for (long id : ids) {
            record(r, id);
        }
        for (long id : ids) {
            if (!await(id)) {
                fail(r, "move " + id + " taking data off the shards that go failed: " + moves.get(id).message);
                return;
            }
        }
        if (NewShards.holdsAny(maps, r.to)) {
            return; // something landed there meanwhile: drain again
        }
        advance(r, ScalePhase.SHRINKING);
    }

    /** Down: the map stops naming the shards that go; once no client holds them they stop. */
    private void shrink(ScaleRecord r) throws SQLException, InterruptedException {
        for (int i = r.to; i < r.from; i++) {
            if (links.has(i)) {
                awaitNoPreparedBranches(i);
            }
        }
        if (maps.current().shardCount() > r.to) {
            maps.update(m -> m.withShardCount(r.to));
        }
        for (int i = r.to; i < r.from; i++) {
            if (links.has(i)) {
                release.await(i);
            }
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (registry.connectionsInUse(i) > 0 && System.nanoTime() < deadline) {
                TimeUnit.MILLISECONDS.sleep(50);
            }
            registry.remove(i);
            instances.stop(i);
        }
        advance(r, ScalePhase.RESIZING);
    }

    private void awaitNoPreparedBranches(int shard) throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (true) {
            try (Connection c = links.open(shard); Statement s = c.createStatement(); ResultSet rs = s.executeQuery("XA RECOVER")) {
                if (!rs.next()) {
                    return;
                }
            }
            if (System.nanoTime() > deadline) {
                throw new SQLException("XA branches stay prepared on shard " + shard + " (see 'cleave xa list'): it stops"
                        + " once they are settled");
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    private void record(ScaleRecord r, long id) {
        if (!r.moves.contains(id)) {
            r.moves.add(id);
            journal.save(r);
        }
    }

    /** Waits for a move to end; whether it is done. */
    private boolean await(long id) throws InterruptedException {
        return moves.awaitEnd(id, steps::closed).phase == MovePhase.DONE;
    }

    private void awaitIdle() throws InterruptedException {
        while (moves.busy()) {
            if (steps.closed()) {
                throw new InterruptedException("closing");
            }
            TimeUnit.MILLISECONDS.sleep(200);
        }
    }

    private void fail(ScaleRecord r, String why) {
        r.phase = ScalePhase.FAILED;
        r.message = why + "; ask for " + r.to + " shards again to go on";
        r.ended = Instant.now().toString();
        journal.save(r);
        log.warn("scale from {} to {} shards: {}", r.from, r.to, r.message);
    }

    /** Deletes the datadirs (and the rest) of shards a scale down stopped; returns what went. */
    public synchronized List<String> purge() {
        if (running()) {
            throw conflict("a scale is under way: purge once it is done");
        }
        try {
            return instances.purge(maps.current().shardCount()).stream().map(Object::toString).toList();
        } catch (IllegalStateException e) {
            throw conflict(e.getMessage());
        }
    }

    public ScaleStatus status() {
        ScaleRecord r = current;
        if (r == null) {
            throw new MoveRefused(MoveRefused.Kind.NOT_FOUND, "no scale has run in this home (cleave scale --shards N)");
        }
        List<Long> ids = List.copyOf(r.moves);
        int done = 0;
        for (long id : ids) {
            done += moves.find(id).map(m -> m.phase.terminal() ? 1 : 0).orElse(0);
        }
        return new ScaleStatus(state(r), r.from, r.to, r.bufferPoolBytes, ids, done, r.message,
                r.started, r.ended);
    }

    static String state(ScaleRecord r) {
        return r.phase.name().toLowerCase();
    }

    /**
     * Why the shards from {@code to} on cannot go: a global unique key's lookup rows are spread over
     * the shards there were when the key was declared, and a scale does not move them (yet). Null
     * when no lookup lives there.
     */
    private String lookupsBeyond(int to, int home) {
        try (java.sql.Connection c = links.open(home); java.sql.Statement st = c.createStatement();
             java.sql.ResultSet rs = st.executeQuery("SELECT schema_name, table_name, key_name, lookup_shards FROM"
                     + " cleave.unique_keys WHERE lookup_shards > " + to + " ORDER BY lookup_shards DESC LIMIT 1")) {
            if (rs.next()) {
                return "the lookup of the global unique key " + rs.getString(3) + " of " + rs.getString(1) + "."
                        + rs.getString(2) + " is spread over shards 0-" + (rs.getInt(4) - 1) + ", which a scale does not"
                        + " move: at least " + rs.getInt(4) + " shards stay";
            }
            return null;
        } catch (SQLException e) {
            // A home from before global unique keys has no catalog: nothing lives beyond any shard.
            return e.getErrorCode() == 1146 ? null : "cannot read the global unique keys on shard " + home + ": "
                    + e.getMessage();
        }
    }

    private static MoveRefused bad(String message) {
        return new MoveRefused(MoveRefused.Kind.BAD_REQUEST, message);
    }

    private static MoveRefused conflict(String message) {
        return new MoveRefused(MoveRefused.Kind.CONFLICT, message);
    }

    @Override
    public void close() {
        steps.close();
    }
}
