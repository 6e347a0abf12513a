package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ResponseKind;
import io.cleave.proxy.cutover.MovingTables;
import io.cleave.proxy.cutover.Participant;
import io.cleave.proxy.importing.ImportReaders;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.Resolution;
import io.cleave.router.plan.Target;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.sql.ast.StatementKind;

/**
 * Interprets a command's plan. A {@link Plan.Route} resolves its target with the command's values
 * under the current shard map: one shard relays the client's own text ({@link ShardExchange}, the
 * hot path), several run the route's child ({@link MergedRead}, {@link FanOutWrites}, or its
 * refusal). A multi-row insert goes to {@link InsertSplitter}, session statements to
 * {@link SettingStatements} or {@link TransactionStatements}, local queries to {@link LocalAnswers}; a refusal is sent as it is.
 */
final class PlanExecutor {

    private final Session session;
    private final Participant participant;
    private final ShardExchange relay;
    private final MergedRead merges;
    private final EvaluatedRead evaluations;
    private final FanOutWrites writes;
    private final InsertSplitter inserts;
    private final UniqueRoutes uniques;
    private final SettingStatements settings;
    private final TransactionStatements transactions;
    private final AccountStatements accounts;
    private final RoleStatement roles;
    private final FilteredRead filtered;
    private final Kills kills;
    private final RoutineCalls calls;
    private final SessionValues sessionValues;

    PlanExecutor(Session session, Participant participant, ShardExchange relay, SettingStatements settings,
                 TransactionStatements transactions, Kills kills) {
        this.accounts = new AccountStatements(session);
        this.roles = new RoleStatement(session);
        this.filtered = new FilteredRead(session);
        this.kills = kills;
        this.session = session;
        this.participant = participant;
        this.relay = relay;
        this.writes = new FanOutWrites(session);
        this.merges = new MergedRead(session, writes);
        this.evaluations = new EvaluatedRead(session, writes);
        this.inserts = new InsertSplitter(session, this, writes);
        this.uniques = new UniqueRoutes(session, this);
        this.settings = settings;
        this.transactions = transactions;
        this.calls = new RoutineCalls(session, this);
        this.sessionValues = new SessionValues(session);
    }

    /**
     * Runs the command's plan. While a move cuts over, a statement on its keys waits instead, and
     * {@code rerun} starts the whole command again once the shard map has changed (its plan and
     * values are read afresh then).
     */
    void run(Command command, Runnable rerun) {
        Plan plan = command.plan() instanceof Plan.MultiStatement m ? m.plan() : command.plan();
        io.cleave.router.shardmap.ShardMap map = session.runtime().shardMaps().current();
        String refusal = ImportReaders.refusal(plan, command.analysis(), map, session.settings().schema());
        if (refusal == null) {
            refusal = MovingTables.ddlRefusal(plan, command.analysis(), map, session.runtime().topology());
        }
        io.cleave.proxy.protocol.packet.server.ErrPacket refusedDatabase = RefusedDatabases.refusal(session, map,
                command.analysis().tokens());
        if (refusedDatabase != null) {
            command.refuse(refusedDatabase.errorCode(), refusedDatabase.sqlState(), refusedDatabase.message());
        } else if (refusal != null) {
            command.refuse(refusal);
        } else if (session.runtime().cutover().admit(participant, plan, command.values(), rerun)) {
            if (session.transaction().applicationXid() != null && (ImplicitCommit.before(plan)
                    || session.transaction().applicationXaIdle() && !(plan instanceof Plan.Session))) {
                // Inside an XA transaction nothing commits implicitly, and after XA END nothing runs.
                command.error(ApplicationXa.rmfail(session.transaction()));
                return;
            }
            if (session.transaction().active()
                    && ImplicitCommit.before(plan, session.settings().autocommit(), command.values())) {
                // The statement ends the open transaction first, on every shard it reached; then it
                // runs afresh (its text's buffers are the event loop's, reused meanwhile).
                transactions.commitThen(command, rerun);
                return;
            }
            if (session.cuts().snapshotDue() && reachesShards(plan)) {
                // A transaction begun READ ONLY (or WITH CONSISTENT SNAPSHOT, chained) reads every
                // shard at one cut, taken at its first statement; the statement then runs afresh
                // (its values are the event loop's, reused meanwhile).
                session.cuts().snapshotTransaction(command, false, rerun);
                return;
            }
            run(command, plan, rerun);
        }
    }

    /** Whether a plan sends anything to a shard (session statements and local answers do not). */
    private static boolean reachesShards(Plan plan) {
        return plan instanceof Plan.Route || plan instanceof Plan.InsertSplit;
    }

    private void run(Command command, Plan plan, Runnable rerun) {
        if (plan instanceof Plan.Route r && r.target() instanceof Target.Routine call) {
            calls.run(command, r, call, rerun);
        } else if (plan instanceof Plan.Route r) {
            route(command, r, rerun);
        } else if (plan instanceof Plan.InsertSplit split) {
            inserts.run(command, split, rerun);
        } else if (plan instanceof Plan.Session s) {
            command.served(RouteKind.LOCAL);
            if (SettingStatements.handles(s.action())) {
                settings.run(command, s.action());
            } else {
                transactions.run(command, s.action());
            }
        } else if (plan instanceof Plan.Local l && l.query() == io.cleave.router.plan.LocalQuery.SESSION_VALUES) {
            sessionValues.run(command, l, rerun);
        } else if (plan instanceof Plan.Local l) {
            local(command, l);
        } else if (plan instanceof Plan.MultiStatement multi) {
            run(command, multi.plan(), rerun);
        } else {
            Plan.Refuse refuse = (Plan.Refuse) plan;
            command.refuse(refuse.code(), refuse.sqlState(), refuse.message());
        }
    }

    /** What the proxy answers itself, or applies to every shard itself. */
    private void local(Command command, Plan.Local l) {
        switch (l.query()) {
            case ACCOUNT_STATEMENT -> accounts.run(command);
            case SET_ROLE -> roles.run(command);
            case KILL -> kills.run(command);
            case FILTERED_READ -> filtered.run(command);
            default -> {
                command.served(RouteKind.LOCAL);
                LocalAnswers.answer(session, command, l);
            }
        }
    }

    private void route(Command command, Plan.Route r, Runnable rerun) {
        int[] lookedUp = command.takeLookedUp();
        if (lookedUp != null) {
            // A lookup by a global unique key found the shards of the rows; the statement runs there.
            if (lookedUp.length == 1) {
                single(command, r, lookedUp[0]);
            } else {
                several(command, r, lookedUp);
            }
            return;
        }
        if (r.probe() != null && uniques.run(command, r, rerun)) {
            return;
        }
        ShardMap map = session.runtime().shardMaps().current();
        Resolution resolution;
        try {
            resolution = session.runtime().resolver().resolve(r.target(), command.values(), map);
        } catch (IllegalArgumentException e) {
            command.refuse(e.getMessage());
            return;
        }
        if (resolution.isError() && r.several() instanceof Plan.Evaluate e) {
            // Keys of several classes on different shards: no shard holds the rows, so they are gathered.
            if (outsideXaBranch(command, -1)) {
                return;
            }
            evaluations.run(command, r, e);
        } else if (resolution.isError()) {
            command.refuse(resolution.error());
        } else if (resolution.isAny() || readsElsewhereWhileTheDefaultShardIsDown(r)) {
            anyShard(command, r);
        } else if (resolution.isSingle()) {
            String span = AttachedServerSpan.refusal(session, map, resolution.shard());
            if (span != null) {
                command.refuse(span);
            } else if (r.kind() == StatementKind.SHOW && SchemaListing.asks(command.analysis().tokens())) {
                SchemaListing.answer(session, command, resolution.shard());
            } else {
                single(command, r, resolution.shard());
            }
        } else {
            String span = AttachedServerSpan.refusal(session, map, resolution.shards());
            if (span != null) {
                command.refuse(span);
            } else {
                several(command, r, resolution.shards());
            }
        }
    }

    /** Any shard answers alike: the one the session uses (for SHOW WARNINGS, the previous statement's), else the next. */
    private void anyShard(Command command, Plan.Route r) {
        if (r.kind() == StatementKind.SHOW) {
            String tlsPattern = TlsStatus.pattern(command.analysis().tokens());
            if (tlsPattern != null) {
                command.served(RouteKind.LOCAL);
                TlsStatus.answer(session, command, tlsPattern);
                return;
            }
            if (ClientProcesses.asks(command.analysis().tokens())) {
                command.served(RouteKind.LOCAL);
                session.runtime().processes().answer(session, command);
                return;
            }
        }
        SessionConnections connections = session.connections();
        boolean previous = r.effects().previousConnection();
        if (previous && !connections.hasWarningsConnection() && r.kind().name().equals("SHOW")) {
            LocalAnswers.warnings(session, command, connections.proxyWarnings());
            return;
        }
        // Status counters differ by shard: the default shard's, as for every catalog read.
        single(command, r, previous && connections.hasWarningsConnection() ? connections.warningsShard()
                : r.kind() == StatementKind.SHOW && !previous ? session.runtime().topology().defaultShard()
                : session.anyShard());
    }

    /**
     * A read of session settings or server variables sent to the default shard while that shard is
     * down goes to one that is up: drivers read them at every login, and a shard that cannot start
     * must not keep clients of the others out. Sequences stay where they live (their pin).
     */
    private boolean readsElsewhereWhileTheDefaultShardIsDown(Plan.Route r) {
        return r.target() instanceof Target.DefaultShard && !r.write() && !r.lockingRead()
                && r.effects().pin().pin() == io.cleave.router.plan.Pin.NONE
                && !session.runtime().availability().isUp(session.runtime().topology().defaultShard());
    }

    /** Relays the client's own statement to one shard (the hot path). */
    void single(Command command, Plan.Route r, int shard) {
        TransactionState tx = session.transaction();
        boolean readAnywhere = (r.target() instanceof Target.AnyShard || r.target() instanceof Target.DefaultShard)
                && !r.write() && !r.lockingRead();
        // A read any shard could answer stays out of a transaction that has not reached a shard yet.
        boolean joins = session.inTransaction(command) && !(readAnywhere && tx.held(shard) == null);
        boolean forceInTransaction = tx.active() && !joins && tx.held(shard) == null;
        if (joins && outsideXaBranch(command, shard)) {
            return;
        }
        if (joins && (r.write() || r.lockingRead())) {
            tx.markWritten(shard);
        }
        command.served(RouteKind.SINGLE_SHARD);
        ShardExchange.Mode mode = command.binary() ? ShardExchange.Mode.EXECUTE : ShardExchange.Mode.RELAY;
        relay.run(command, shard, ResponseKind.RESULT, mode, command.statement(), joins, forceInTransaction,
                PipelineRule.of(session, command, r, mode, joins, forceInTransaction));
    }

    /**
     * Whether the statement was refused because it would take the application's XA transaction
     * beyond the shard of its branch ({@code shard} -1: to several shards).
     */
    boolean outsideXaBranch(Command command, int shard) {
        io.cleave.proxy.protocol.packet.server.ErrPacket refused = ApplicationXa.reaching(session.transaction(), shard);
        if (refused != null) {
            command.error(refused);
            return true;
        }
        return false;
    }

    void several(Command command, Plan.Route r, int[] shards) {
        if (session.inTransaction(command) && outsideXaBranch(command, -1)) {
            return;
        }
        Plan.Spread spread = r.several();
        if (spread instanceof Plan.Merge merge) {
            merges.run(command, r, merge, shards);
        } else if (spread instanceof Plan.Evaluate evaluate) {
            evaluations.run(command, r, evaluate);
        } else if (spread instanceof Plan.FanOutWrite fanOut) {
            writes.run(command, r, fanOut, shards);
        } else if (spread instanceof Plan.Refuse refuse) {
            command.refuse(refuse.code(), refuse.sqlState(), refuse.message());
        } else {
            command.refuse("statement resolved to several shards but has no way to combine them");
        }
    }
}
