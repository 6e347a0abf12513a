package io.cleave.manager.move;

import io.cleave.manager.unique.LookupFill;
import io.cleave.manager.unique.MovedKey;
import io.cleave.proxy.cutover.Cutover;
import io.cleave.proxy.cutover.CutoverGate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Runs one move through its phases: copy from a consistent snapshot, catch up from the binlog,
 * verify, cut over through the proxy, clean up the source. What moves (keys of a keyspace, whole
 * tables) and where each row goes is the move's {@link MoveScope}; the phases are the same. Every
 * step is journaled before the next; after a crash the runner starts again from the journal and
 * the shard map (which says whether the move switched). A shard that does not answer pauses the
 * move until it is back; other failures are retried a few times, then the move is undone (before
 * the switch) or keeps retrying its cleanup (after it).
 */
final class MoveRunner {

    private static final Logger log = LoggerFactory.getLogger(MoveRunner.class);
    private static final int MAX_FAILURES = 5;
    private static final long JOURNAL_EVERY_MILLIS = 500;
    /** Most catch-up events a cutover applies while clients wait. */
    private static final long FENCE_EVENTS = 2_000;

    private final MoveRecord r;
    private final MoveEnvironment env;
    private final MoveScope scope;
    private final RowCopier copier;
    private final KeyApplier applier = new KeyApplier();
    private final RowDeleter deleter;
    /** Keys verification left to check under the cutover's hold (they kept changing). */
    private java.util.Map<TableShape, java.util.Set<List<Object>>> unsettled = VerifyPass.empty();
    private List<TableShape> shapes;
    private Connection source;
    /** By shard: the connections to the targets. */
    private final Map<Integer, Connection> targets = new LinkedHashMap<>();
    private BinlogTail tail;
    private long lastJournal;
    /** The global unique keys of tables the move shards (read from the source when first needed). */
    private List<MovedKey> movedKeys;
    /** Why the rows cannot take their keys' lookups (found under the cutover's hold): the move is undone. */
    private String keysRefusal;

    MoveRunner(MoveRecord record, MoveEnvironment env) {
        this.r = record;
        this.env = env;
        this.scope = MoveScope.of(record, env);
        this.copier = new RowCopier(env.settings());
        this.deleter = new RowDeleter(env.settings());
    }

    /** Whether the current map already shows the move's result. */
    static boolean switched(MoveRecord r, MoveEnvironment env) {
        return MoveScope.of(r, env).switched(env.maps().current());
    }

    /** Runs until the move ends; returns early (journal intact) when interrupted. */
    void run() {
        int failures = 0;
        long backoff = 200;
        while (!r.phase.terminal()) {
            try {
                step();
                failures = 0;
                backoff = 200;
            } catch (CancelledException e) {
                r.phase = MovePhase.UNDOING;
                r.message = "cancelled";
                save();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                closeAll();
                return;
            } catch (Exception e) {
                closeAll();
                String why = e.getMessage() != null ? e.getMessage() : e.toString();
                if (unreachable(e)) {
                    r.message = "paused: " + why + " (goes on when the shard answers again)";
                    log.warn("move {}: {}", r.id, r.message);
                } else {
                    failures++;
                    r.message = "attempt " + failures + " of " + MAX_FAILURES + " failed: " + why;
                    log.warn("move {} ({}): {}", r.id, r.phase, why, e);
                    if (failures >= MAX_FAILURES && !r.phase.switched() && r.phase != MovePhase.UNDOING) {
                        r.message = "failed: " + why;
                        r.phase = MovePhase.UNDOING;
                        failures = 0;
                    }
                }
                save();
                if (!sleep(backoff)) {
                    return;
                }
                backoff = Math.min(5_000, backoff * 2);
            }
        }
        closeAll();
    }

    private void step() throws Exception {
        switch (r.phase) {
            case PLANNED -> plan();
            case COPYING -> copy();
            case CATCHING_UP -> catchUp();
            case VERIFYING -> verify();
            case CUTTING_OVER -> cutOver();
            case CLEANING_UP -> cleanUp();
            case UNDOING -> undo();
            default -> throw new IllegalStateException("move " + r.id + " is " + r.phase);
        }
    }

    // ---- phases ---------------------------------------------------------------------------------

    private void plan() throws SQLException {
        scope.prepare();
        advance(MovePhase.COPYING);
    }

    private void copy() throws Exception {
        open();
        long started = System.nanoTime();
        try (Connection snapshot = env.shards().open(r.source); Statement s = snapshot.createStatement()) {
            if (r.binlogFile == null) {
                BinlogPosition before = catchUpStart();
                BinlogPosition at = SourceSnapshot.start(snapshot);
                // Everything the binlog holds before the earlier of the two is in the snapshot.
                BinlogPosition start = before.compareTo(at) <= 0 ? before : at;
                r.binlogFile = start.file();
                r.binlogPosition = start.position();
                r.appliedFile = start.file();
                r.appliedPosition = start.position();
                save();
            } else {
                SourceSnapshot.start(snapshot);
            }
            if (r.rowsTotal == 0) {
                long total = 0;
                for (TableShape shape : shapes) {
                    shape.table.rowsTotal = count(snapshot, shape);
                    total += shape.table.rowsTotal;
                }
                r.rowsTotal = total;
                save();
            }
            for (TableShape shape : shapes) {
                copier.copy(snapshot, targets, shape, (table, rows, bytes) -> {
                    r.rowsCopied += rows;
                    r.bytesCopied += bytes;
                    env.metrics().copied(rows);
                    save();
                    hook(MoveHooks.Point.COPYING);
                    checkCancel();
                });
            }
            s.execute("COMMIT");
        }
        r.copyMillis += (System.nanoTime() - started) / 1_000_000;
        advance(MovePhase.CATCHING_UP);
    }

    /**
     * A binlog position at a moment when no XA branch is prepared on the source, taken before the
     * copy's snapshot: catch-up starts at it or at the snapshot's own position, whichever is
     * earlier. A branch prepared before it would be in the binlog before the start and committed
     * after the snapshot, so neither would carry its rows; one prepared after it is read. The
     * snapshot's own position covers the transactions the binlog had before the snapshot began
     * but the engine had not committed yet (it commits them after their binlog write).
     */
    private BinlogPosition catchUpStart() throws SQLException, InterruptedException {
        for (int attempt = 0; attempt < 200; attempt++) {
            BinlogPosition p = BinlogPosition.current(source);
            if (preparedBranches(source) == 0) {
                return p;
            }
            Thread.sleep(25);
        }
        throw new SQLException("XA branches stay prepared on shard " + r.source + " (see 'cleave xa list'): the copy"
                + " waits until they are settled");
    }

    private void catchUp() throws Exception {
        open();
        startTail();
        while (true) {
            checkCancel();
            long applied = applyOnce();
            hook(MoveHooks.Point.CATCHING_UP);
            if (tail.pendingEvents() < env.settings().catchUpLag() && tail.reached(BinlogPosition.current(source))) {
                break;
            }
            if (applied == 0) {
                Thread.sleep(5);
            }
        }
        advance(MovePhase.VERIFYING);
    }

    private void verify() throws Exception {
        open();
        startTail();
        hook(MoveHooks.Point.VERIFYING);
        VerifyPass pass = new VerifyPass(env.shards(), tail, this::applyOnce, env.settings().chunkRows());
        unsettled = pass.run(r.source, source, targets, shapes);
        r.chunksVerified += pass.counts().chunks();
        r.chunksRepaired += pass.counts().repaired();
        advance(MovePhase.CUTTING_OVER);
    }

    private void cutOver() throws Exception {
        open();
        startTail();
        hook(MoveHooks.Point.CUTTING_OVER);
        long backoff = 100;
        while (true) {
            checkCancel();
            closeGap();
            LookupFill.prepare(movedKeys(), env.shards()::openForWrites);
            r.cutoverAttempts++;
            CutoverGate gate = env.gate().get();
            Cutover.Outcome outcome;
            if (gate != null) {
                outcome = gate.run(new Cutover(r.id, scope.cutoverScope(), r.source, env.settings().drainDeadline()),
                        this::fence);
            } else {
                long start = System.nanoTime();
                fence();
                outcome = new Cutover.Outcome(true, System.nanoTime() - start, 0, 0, null);
            }
            if (scope.switched(env.maps().current())) {
                r.pauseMillis = outcome.pauseNanos() / 1e6;
                r.maxHeldMillis = outcome.maxHeldNanos() / 1e6;
                r.heldStatements = outcome.held();
                env.metrics().paused(outcome.pauseNanos());
                log.info("move {}: {} now on shards {} (clients paused {} ms, {} statements held)", r.id, r.what(),
                        scope.targets(), String.format("%.1f", r.pauseMillis), outcome.held());
                r.message = null;
                advance(MovePhase.CLEANING_UP);
                return;
            }
            if (keysRefusal != null) {
                r.message = "failed: " + keysRefusal;
                r.phase = MovePhase.UNDOING;
                save();
                return;
            }
            r.message = "cutover attempt " + r.cutoverAttempts + " given up: " + outcome.reason() + "; trying again";
            log.info("move {}: {}", r.id, r.message);
            save();
            Thread.sleep(backoff);
            backoff = Math.min(2_000, backoff * 2);
        }
    }

    /**
     * Catches up until little is left before holding anyone: what is left is applied while clients
     * wait. Gives up waiting after a minute (the cutover attempt then decides).
     */
    private void closeGap() throws Exception {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (System.nanoTime() < deadline) {
            checkCancel();
            long applied = applyOnce();
            if (tail.pendingEvents() < env.settings().catchUpLag() && tail.reached(BinlogPosition.current(source))) {
                return;
            }
            if (applied == 0) {
                Thread.sleep(2);
            }
        }
    }

    /** Runs while statements on the moving keys are held: the last changes, a last check, the new map. */
    private void fence() throws Exception {
        if (preparedBranches(source) > 0) {
            throw new SQLException("an XA branch is prepared on shard " + r.source + " and may hold moving rows");
        }
        long started = System.nanoTime();
        BinlogPosition end = BinlogPosition.current(source);
        tail.awaitReached(end, 2_000);
        if (tail.pendingEvents() > FENCE_EVENTS) {
            // Applying that many while clients wait would pause them too long: catch up first, then try again.
            throw new SQLException("catch-up is " + tail.pendingEvents() + " events behind");
        }
        applyOnce();
        long caughtUp = System.nanoTime();
        // Keys that changed all through verification: nothing changes them now.
        VerifyPass pass = new VerifyPass(env.shards(), tail, this::applyOnce, env.settings().chunkRows());
        pass.settle(source, targets, unsettled);
        r.chunksRepaired += pass.counts().repaired();
        long settled = System.nanoTime();
        long lookupRows = fillLookups();
        long filled = System.nanoTime();
        hook(MoveHooks.Point.BEFORE_FLIP);
        // Before the flip, while every statement on the table is held: no statement can be routed by
        // the new map without finding the keys enforced.
        movedKeys().forEach(k -> env.keys().complete(k.index()));
        try {
            env.maps().update(scope::flip);
        } catch (RuntimeException e) {
            movedKeys().forEach(k -> env.keys().dropped(k.index()));
            throw e;
        }
        env.hooks().at(MoveHooks.Point.AFTER_FLIP, r.id);
        String lookups = movedKeys().isEmpty() ? "" : ", " + lookupRows + " lookup rows of " + movedKeys().size()
                + " global unique keys filled in " + (filled - settled) / 1_000_000 + " ms";
        log.info("move {}: fence: last events applied in {} ms, {} changing keys checked in {} ms{}, map written in {} ms",
                r.id, (caughtUp - started) / 1_000_000, unsettled.values().stream().mapToInt(java.util.Set::size).sum(),
                (settled - caughtUp) / 1_000_000, lookups, (System.nanoTime() - filled) / 1_000_000);
    }

    /**
     * Under the hold, before the flip: the lookups of the global unique keys of tables the move
     * shards are made from the rows and the keys registered ({@link LookupFill}).
     */
    private long fillLookups() throws Exception {
        if (movedKeys().isEmpty()) {
            return 0;
        }
        hook(MoveHooks.Point.FILLING_LOOKUPS);
        long rows;
        try {
            rows = LookupFill.fill(source, movedKeys(), env.shards()::openForWrites);
        } catch (LookupFill.Duplicates e) {
            keysRefusal = e.getMessage();
            throw e;
        }
        try (Connection home = env.shards().open(env.maps().topology().defaultShard())) {
            LookupFill.register(home, movedKeys());
        }
        hook(MoveHooks.Point.KEYS_REGISTERED);
        return rows;
    }

    private void cleanUp() throws Exception {
        closeTail();
        // Before the keys' builds rows go: a test holding the move here sees the map flipped and them left.
        hook(MoveHooks.Point.CLEANING_UP);
        if (!movedKeys().isEmpty()) {
            // Also after a restart that found the map flipped but the keys' builds rows left.
            try (Connection home = env.shards().open(env.maps().topology().defaultShard())) {
                LookupFill.complete(home, movedKeys(), env.keys());
            }
        }
        try (Connection c = env.shards().openForWrites(r.source)) {
            shapes(c);
            scope.cleanUp(c, shapes, deleter, n -> {
                r.rowsCleaned += n;
                saveSometimes();
                hook(MoveHooks.Point.CLEANING_UP);
                hook(MoveHooks.Point.CLEANED_CHUNK);
            });
        }
        if (scope.leftInMap(env.maps().current())) {
            env.maps().update(scope::ended);
        }
        finish(MovePhase.DONE);
    }

    private void undo() throws Exception {
        closeTail();
        hook(MoveHooks.Point.UNDOING);
        if (!movedKeys().isEmpty()) {
            try (Connection home = env.shards().open(env.maps().topology().defaultShard())) {
                LookupFill.drop(home, movedKeys(), env.shards()::openForWrites, env.keys());
            }
        }
        try (Connection s = env.shards().open(r.source)) {
            shapes(s);
        }
        for (int t : scope.targets()) {
            try (Connection c = env.shards().openForWrites(t)) {
                for (TableShape shape : shapes) {
                    deleter.delete(c, shape, shape.placement.onTarget(t), n -> saveSometimes());
                }
            }
        }
        if (scope.leftInMap(env.maps().current())) {
            env.maps().update(scope::ended);
        }
        finish(r.cancelRequested ? MovePhase.CANCELLED : MovePhase.FAILED);
    }

    // ---- pieces ---------------------------------------------------------------------------------

    /** Applies what the binlog named since last time; returns the rows changed. */
    private long applyOnce() throws Exception {
        tail.check();
        BinlogTail.Batch batch = tail.drain();
        long changed = 0;
        if (!batch.isEmpty()) {
            try {
                changed = applier.applyCaughtUp(source, targets, batch.keys(), batch.xaCommitted(), batch.upTo());
            } catch (Exception e) {
                // A cutover attempt that gives up goes on with this tail: the keys must be applied by the next one.
                tail.giveBack(batch);
                throw e;
            }
            r.rowsApplied += changed;
        }
        r.catchUpEvents += batch.events();
        r.appliedFile = batch.safe().file();
        r.appliedPosition = batch.safe().position();
        r.lagEvents = tail.pendingEvents();
        r.lagSeconds = tail.lagSeconds();
        env.metrics().lag(r.lagEvents, r.lagSeconds);
        saveSometimes();
        return changed;
    }

    /** The global unique keys of the tables the move makes sharded, read from the source. */
    private List<MovedKey> movedKeys() throws SQLException {
        if (movedKeys == null) {
            List<MovedKey> keys = new ArrayList<>();
            try (Connection c = env.shards().open(r.source)) {
                for (TableProgress t : r.tables) {
                    if (t.rule != null && "sharded".equals(t.rule.rule)) {
                        keys.addAll(MovedKey.of(c, t.schema, t.table, t.rule.column, env.maps().current().shardCount()));
                    }
                }
            } catch (MovedKey.Unsupported e) {
                throw new SQLException(e.getMessage(), e);
            }
            movedKeys = keys;
        }
        return movedKeys;
    }

    private void startTail() throws Exception {
        if (tail != null) {
            return;
        }
        tail = new BinlogTail(env.shards().endpoint(r.source), 900_000_000L + r.id,
                new BinlogPosition(r.appliedFile, r.appliedPosition), shapes);
        tail.start();
    }

    private void open() throws SQLException {
        if (source == null || source.isClosed()) {
            source = env.shards().open(r.source);
        }
        for (int t : scope.targets()) {
            Connection c = targets.get(t);
            if (c == null || c.isClosed()) {
                targets.put(t, env.shards().openForWrites(t));
            }
        }
        if (shapes == null) {
            shapes(source);
        }
    }

    private void shapes(Connection c) throws SQLException {
        List<TableShape> list = new ArrayList<>();
        for (TableProgress t : r.tables) {
            TableShape shape = TableShape.read(c, t);
            shape.placement = scope.placement(shape);
            shape.moving = shape.placement.onSource();
            list.add(shape);
        }
        shapes = list;
    }

    private static long count(Connection c, TableShape shape) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM "
                + shape.table.qualified() + " WHERE " + shape.moving)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    /** XA branches prepared on {@code c}'s server; 0 when the account may not see them (an import's source). */
    static int preparedBranches(Connection c) throws SQLException {
        int n = 0;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("XA RECOVER")) {
            while (rs.next()) {
                n++;
            }
        } catch (SQLException e) {
            if (e.getErrorCode() == 1227 || e.getErrorCode() == 1044 || e.getErrorCode() == 1142) {
                return 0;
            }
            throw e;
        }
        return n;
    }

    private void checkCancel() {
        if (r.cancelRequested && !r.phase.switched()) {
            throw new CancelledException();
        }
    }

    private void hook(MoveHooks.Point point) {
        env.hooks().at(point, r.id);
    }

    private void advance(MovePhase next) {
        r.phase = next;
        save();
    }

    private void finish(MovePhase outcome) {
        r.phase = outcome;
        r.ended = Instant.now().toString();
        if (outcome == MovePhase.DONE) {
            r.message = null;
        }
        save();
        env.metrics().ended(outcome);
        log.info("move {} of {} from shard {} to {}: {}", r.id, r.what(), r.source, scope.targets(), outcome);
    }

    private void save() {
        env.journal().save(r);
        lastJournal = System.currentTimeMillis();
    }

    private void saveSometimes() {
        if (System.currentTimeMillis() - lastJournal >= JOURNAL_EVERY_MILLIS) {
            save();
        }
    }

    private void closeTail() {
        if (tail != null) {
            tail.close();
            tail = null;
        }
    }

    private void closeAll() {
        closeTail();
        List<Connection> all = new ArrayList<>(targets.values());
        all.add(source);
        for (Connection c : all) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (SQLException e) {
                // already gone
            }
        }
        source = null;
        targets.clear();
    }

    private static boolean unreachable(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof IOException || t instanceof java.sql.SQLNonTransientConnectionException
                    || t instanceof java.sql.SQLTransientConnectionException
                    || t instanceof SQLException s && s.getSQLState() != null && s.getSQLState().startsWith("08")) {
                return true;
            }
        }
        return false;
    }

    private static boolean sleep(long millis) {
        try {
            Thread.sleep(millis);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** The move was cancelled before its cutover. */
    private static final class CancelledException extends RuntimeException {
        CancelledException() {
            super("cancelled", null, false, false);
        }
    }
}
