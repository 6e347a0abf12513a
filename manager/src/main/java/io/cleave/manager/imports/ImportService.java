package io.cleave.manager.imports;

import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.daemon.ShardRegistry;
import io.cleave.manager.held.HeldTables;
import io.cleave.manager.move.Catalog;
import io.cleave.manager.move.MapUpdates;
import io.cleave.manager.move.MoveKind;
import io.cleave.manager.move.MoveRecord;
import io.cleave.manager.move.MoveRefused;
import io.cleave.manager.move.MoveService;
import io.cleave.manager.move.RuleSpec;
import io.cleave.manager.move.SchemaCopier;
import io.cleave.manager.move.ShardLinks;
import io.cleave.manager.move.Steps;
import io.cleave.manager.move.TableProgress;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;

/**
 * {@code cleave import}: fronts an existing server's database at once, then moves its rows to the
 * local shards and lets the server go. Phases, each journaled before the next and resumed after a
 * restart: the source is attached (the shard map homes every table and view of the database on it,
 * so clients switch to the proxy with nothing moved); the schema is created on every local shard;
 * one move of all the tables carries the rows by the sharding rules (copy from a consistent
 * snapshot, catch-up from the source's row binlog, verification, one held cutover that publishes
 * every table's rule); the source is detached. Nothing is ever written to the source.
 */
public final class ImportService implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(ImportService.class);

    private final ImportJournal journal;
    private final MoveService moves;
    private final MapUpdates maps;
    private final ShardLinks links;
    private final ShardRegistry registry;
    private final Steps steps;
    private final ImportMetrics metrics;
    private final java.util.function.BooleanSupplier scaling;
    private volatile ImportRecord current;
    private volatile java.util.function.Supplier<String> refusal = () -> null;

    /** {@code meters}: where the import's progress is published (/metrics). */
    /** {@code scaling}: whether a scale is under way (an import then waits: the shard count must stay). */
    public ImportService(Path stateDir, MoveService moves, ShardRegistry registry, io.micrometer.core.instrument.MeterRegistry meters,
                         java.util.function.BooleanSupplier scaling) {
        this.scaling = scaling;
        this.journal = new ImportJournal(stateDir);
        this.moves = moves;
        this.maps = moves.environment().maps();
        this.links = moves.environment().shards();
        this.registry = registry;
        this.current = journal.load().orElse(null);
        this.steps = new Steps("importer", this::step, this::failed);
        this.metrics = new ImportMetrics(meters, this);
        if (current != null) {
            metrics.track(current);
        }
    }

    /** How to reach the attached source when the shard map has one (the proxy serves it from its start). */
    public Optional<ShardEndpoint> attachedEndpoint() {
        ImportRecord r = current;
        if (r == null || !maps.current().isAttached(r.shard)) {
            return Optional.empty();
        }
        SourceUrl url = journal.source().orElseThrow(() -> new IllegalStateException("the shard map has "
                + r.source + " attached for an import, but " + journal.secretFile() + " (its account) is gone:"
                + " restore it, or the database's tables cannot be reached"));
        return Optional.of(url.endpoint(r.shard));
    }

    /** Goes on with an import a previous daemon left unfinished (after the proxy started). */
    public synchronized void resume() {
        ImportRecord r = current;
        if (r == null || r.phase == ImportPhase.DONE || r.phase == ImportPhase.FAILED) {
            return;
        }
        moves.keepReserved(r.moveId);
        log.info("import of {}: resuming at {}", r.source, r.phase);
        steps.go();
    }

    /**
     * Refuses every import (409) while {@code reason} names why (the old primary's proxy, after a switchover, still
     * forwards here by its own map, which would not route to the source).
     */
    public void refuseWhen(java.util.function.Supplier<String> reason) {
        this.refusal = reason;
    }

    /**
     * Starts importing (or, for a source whose import failed, goes on): checks everything first
     * and refuses with every problem, nothing attached; else attaches the source and returns.
     */
    public synchronized ImportStatus start(String from) {
        String refused = refusal.get();
        if (refused != null) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, refused);
        }
        SourceUrl url;
        try {
            url = SourceUrl.parse(from);
        } catch (IllegalArgumentException e) {
            throw new MoveRefused(MoveRefused.Kind.BAD_REQUEST, e.getMessage());
        }
        ImportRecord r = current;
        if (r != null && r.phase != ImportPhase.DONE) {
            if (r.phase == ImportPhase.FAILED && r.source.equals(url.label())) {
                return retry(r, url);
            }
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "the import of " + r.source + " is " + state(r)
                    + ": one import at a time (see 'cleave import --status')");
        }
        if (scaling.getAsBoolean() || maps.current().movingTables().containsKey(ShardMap.EVERY_TABLE)) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "a scale is under way: import once it is done");
        }
        List<String> readers = foreignReaders(url.database());
        if (!readers.isEmpty()) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, ForeignReaders.refusal(url.label(), url.database(), readers));
        }
        ImportPlan plan = plan(url);
        if (!plan.problems.isEmpty()) {
            throw new MoveRefused(MoveRefused.Kind.BAD_REQUEST, "cannot import " + url.label() + ", nothing was changed:\n  - "
                    + String.join("\n  - ", plan.problems));
        }
        ImportRecord next = new ImportRecord();
        next.source = url.label();
        next.database = url.database();
        next.tables = plan.tables;
        next.views = plan.views;
        next.routines = plan.routines;
        ShardMap map = maps.current();
        next.shard = map.shardCount() + map.attached().size();
        next.moveId = moves.reserveId();
        next.started = Instant.now().toString();
        journal.saveSource(url);
        journal.save(next);
        current = next;
        try {
            attach(next, url);
        } catch (SQLException | RuntimeException e) {
            if (!maps.current().isAttached(next.shard)) {
                // Nothing routes to the source: the import did not start.
                registry.remove(next.shard);
                journal.forgetSource();
                journal.restore(r);
                current = r;
                throw new MoveRefused(MoveRefused.Kind.CONFLICT, "cannot attach " + url.label() + ": " + e.getMessage());
            }
            next.message = "paused: " + e.getMessage() + " (trying again)";
            journal.save(next);
        }
        metrics.track(next);
        log.info("import of {}: {} tables, {} views, {} routines; the source is attached as shard {}", next.source,
                next.tables.size(), next.views.size(), next.routines.size(), next.shard);
        steps.go();
        return status();
    }

    private ImportStatus retry(ImportRecord r, SourceUrl url) {
        journal.saveSource(url);
        r.moveId = moves.reserveId();
        r.phase = ImportPhase.MOVING;
        r.message = "importing again after: " + r.message;
        journal.save(r);
        maps.update(m -> m.withMovingTables(names(r), r.moveId));
        steps.go();
        return status();
    }

    private ImportPlan plan(SourceUrl url) {
        List<Connection> local = new ArrayList<>();
        try (Connection source = connect(url)) {
            for (int s = 0; s < maps.current().shardCount(); s++) {
                local.add(links.open(s));
            }
            return ImportPlan.of(source, url.database(), maps.routing(), maps.current(), local);
        } catch (SQLException e) {
            throw new MoveRefused(MoveRefused.Kind.BAD_REQUEST, "cannot read " + url.label() + ": " + e.getMessage());
        } finally {
            close(local);
        }
    }

    /** The views, routines, triggers and events of other databases on the shards that name {@code database}. */
    private List<String> foreignReaders(String database) {
        List<Connection> local = new ArrayList<>();
        try {
            for (int s = 0; s < maps.current().shardCount(); s++) {
                local.add(links.open(s));
            }
            return ForeignReaders.of(local, database);
        } catch (SQLException e) {
            throw new MoveRefused(MoveRefused.Kind.CONFLICT, "cannot read the shards' views and routines: " + e.getMessage());
        } finally {
            close(local);
        }
    }

    private static void close(List<Connection> connections) {
        for (Connection c : connections) {
            try {
                c.close();
            } catch (SQLException ignored) {
                // closing
            }
        }
    }

    static Connection connect(SourceUrl url) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://" + url.host() + ":" + url.port() + "/?sslMode=PREFERRED"
                + "&allowPublicKeyRetrieval=true&connectTimeout=5000", url.user(), url.password());
    }

    /**
     * The mover and the proxy reach the source, then the shard map homes the database's tables and
     * views there. The database itself is created on every local shard first: a client may name it
     * at login or in USE, and statements naming none of its tables go to a local shard.
     */
    private void attach(ImportRecord r, SourceUrl url) throws SQLException {
        try (Connection source = connect(url)) {
            String create = Catalog.showCreateDatabase(source, r.database)
                    .replaceFirst("(?i)^CREATE DATABASE ", "CREATE DATABASE IF NOT EXISTS ");
            for (int s = 0; s < maps.current().shardCount(); s++) {
                try (Connection shard = links.open(s); java.sql.Statement st = shard.createStatement()) {
                    st.execute(create);
                }
            }
        }
        registry.add(url.endpoint(r.shard));
        if (!maps.current().isAttached(r.shard)) {
            maps.update(m -> {
                // A database a promotion refused (this home's old primary's import of it, cut short) is served again:
                // from the source now, as the import's rules say.
                ShardMap next = m.refusedDatabases().containsKey(r.database) ? m.withoutRefusedDatabase(r.database)
                        .withAttached(r.source) : m.withAttached(r.source);
                for (String name : names(r)) {
                    next = next.withRule(new TableRule.Unsharded(name, r.shard));
                }
                return next.withMovingTables(names(r), r.moveId);
            });
        }
        r.phase = ImportPhase.CREATING_SCHEMA;
        journal.save(r);
    }

    private static List<String> names(ImportRecord r) {
        List<String> names = new ArrayList<>(r.tables.keySet());
        names.addAll(r.views.keySet());
        return names;
    }

    /** One step of the plan, from where its journal says it stands; false once it ended. */
    private boolean step() throws Exception {
        ImportRecord r = current;
        switch (r.phase) {
            case ATTACHING -> attach(r, source());
            case CREATING_SCHEMA -> createSchema(r);
            case MOVING -> {
                return move(r);
            }
            case DETACHING -> detach(r);
            case DONE, FAILED -> {
                return false;
            }
        }
        return true;
    }

    private void failed(Exception e) {
        ImportRecord r = current;
        r.message = "paused: " + e.getMessage() + " (trying again)";
        log.warn("import of {} ({}): {}", r.source, r.phase, e.getMessage());
        journal.save(r);
    }

    private SourceUrl source() {
        return journal.source().orElseThrow(() -> new IllegalStateException(journal.secretFile() + " is gone"));
    }

    private void createSchema(ImportRecord r) throws SQLException {
        try (Connection source = connect(source())) {
            for (int s = 0; s < maps.current().shardCount(); s++) {
                try (Connection shard = links.open(s)) {
                    // Tables a promotion set aside when it cut an import of this database short: back, emptied,
                    // before the copy, so one that was there before that import keeps its definition.
                    List<String> back = HeldTables.restore(shard, r.database);
                    if (!back.isEmpty()) {
                        log.info("import of {}: tables {} put back on shard {} (set aside when an import of {} was cut"
                                + " short)", r.source, back, s, r.database);
                    }
                    SchemaCopier.copy(source, shard, r.database, r.tables.keySet(), r.views.keySet(), r.routines);
                }
            }
        }
        log.info("import of {}: schema created on every shard", r.source);
        r.phase = ImportPhase.MOVING;
        r.message = null;
        journal.save(r);
    }

    /** Starts the move unless it exists, waits for its end; returns whether to go on (false: failed). */
    private boolean move(ImportRecord r) throws SQLException, InterruptedException {
        MoveRecord m = moves.find(r.moveId).orElse(null);
        if (m == null) {
            m = moves.startTables(plannedMove(r), r.moveId);
            log.info("import of {}: move {} carries the rows of {} tables to shards {}", r.source, m.id, m.tables.size(),
                    m.targets);
        }
        m = moves.awaitEnd(m.id, steps::closed);
        if (m.phase != io.cleave.manager.move.MovePhase.DONE) {
            r.phase = ImportPhase.FAILED;
            r.message = "move " + m.id + " " + m.phase.name().toLowerCase() + ": " + m.message + "; the source stays"
                    + " attached and serving; import from it again to go on";
            // The tables still live on the source: their structure must not change on the shards alone.
            maps.update(map -> map.withMovingTables(names(r), r.moveId));
            journal.save(r);
            log.warn("import of {}: {}", r.source, r.message);
            return false;
        }
        r.phase = ImportPhase.DETACHING;
        r.message = null;
        journal.save(r);
        return true;
    }

    private MoveRecord plannedMove(ImportRecord r) throws SQLException {
        MoveRecord m = new MoveRecord();
        m.kind = MoveKind.TABLES;
        m.source = r.shard;
        m.keepSource = true;
        m.origin = "import";
        ShardMap map = maps.current();
        TreeSet<Integer> targets = new TreeSet<>();
        try (Connection source = connect(source())) {
            for (Map.Entry<String, RuleSpec> t : r.tables.entrySet()) {
                TableRule rule = t.getValue().toRule(t.getKey());
                m.tables.add(TableProgress.of(r.database, t.getKey(), Catalog.primaryKey(source, r.database, t.getKey()), rule));
                if (rule instanceof TableRule.Unsharded u) {
                    targets.add(u.homeShard());
                } else {
                    // A sharded table's rows go where their buckets are when they are copied: any shard.
                    for (int s = 0; s < map.shardCount(); s++) {
                        targets.add(s);
                    }
                }
            }
        }
        m.targets = new ArrayList<>(targets);
        m.alsoRules.putAll(r.views);
        return m;
    }

    /** Lets the source go once no client holds a connection there; nothing is written to it. */
    private void detach(ImportRecord r) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (registry.connectionsInUse(r.shard) > 0 && System.nanoTime() < deadline) {
            TimeUnit.MILLISECONDS.sleep(50);
        }
        if (maps.current().isAttached(r.shard)) {
            maps.update(m -> m.withoutAttached(r.shard));
        }
        registry.remove(r.shard);
        links.remove(r.shard);
        journal.forgetSource();
        r.phase = ImportPhase.DONE;
        r.ended = Instant.now().toString();
        r.message = null;
        journal.save(r);
        log.info("import of {} done: the source is detached", r.source);
    }

    /** The import now, or the last one; throws NOT_FOUND when none ever ran. */
    public ImportStatus status() {
        ImportRecord r = current;
        if (r == null) {
            throw new MoveRefused(MoveRefused.Kind.NOT_FOUND, "no import has run in this home (start one with"
                    + " 'cleave import --from mysql://USER:PASSWORD@HOST:PORT/DATABASE')");
        }
        return ImportProgress.of(journal.copy(r), moves.find(r.moveId).orElse(null));
    }

    /** The last import's status, or empty (for /metrics). */
    public Optional<ImportStatus> last() {
        return current == null ? Optional.empty() : Optional.of(status());
    }

    static String state(ImportRecord r) {
        return r.phase.name().toLowerCase().replace('_', ' ');
    }

    @Override
    public void close() {
        steps.close();
    }
}
