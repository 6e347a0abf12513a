package io.cleave.router.plan;

import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.ast.Delete;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Exprs;
import io.cleave.router.sql.ast.Insert;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.sql.ast.SelectItem;
import io.cleave.router.sql.ast.SetStatement;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.ast.TransactionStatement;
import io.cleave.router.sql.ast.Update;
import io.cleave.router.sql.ast.UtilityStatement;
import io.cleave.router.sql.ast.VariableScope;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Turns a parsed statement into a {@link Plan}. Pure: the same statement shape always gives the
 * same plan, which is why plans are cached by digest. Anything that cannot be answered correctly
 * across shards becomes a {@link Plan.Refuse} naming the reason.
 */
public final class Planner {

    private static final Set<String> LOCAL_FUNCTIONS = Set.of("LAST_INSERT_ID", "ROW_COUNT", "FOUND_ROWS", "CONNECTION_ID", "DATABASE",
            "SCHEMA",
            "USER", "SESSION_USER", "SYSTEM_USER", "CURRENT_USER");

    private final Topology topology;
    private final PlanGate gate;

    public Planner(Topology topology) {
        this.topology = topology;
        this.gate = new PlanGate(topology);
    }

    public Topology topology() {
        return topology;
    }

    public Plan plan(Statement statement, io.cleave.router.sql.lex.TokenBuffer tokens,
                     io.cleave.router.sql.digest.StatementDigest digest) {
        PlanContext ctx = new PlanContext(topology, tokens, digest);
        try {
            Plan plan = sequencesOnTheDefaultShard(statement, plan(statement, ctx));
            if (plan instanceof Plan.Route r && topology.shardCount() > 1) {
                UniqueProbe probe = UniqueProbe.of(statement, topology);
                if (probe != null) {
                    return r.with(probe);
                }
            }
            return plan;
        } catch (PlanningException e) {
            return new Plan.Refuse(statement.kind(), e.code, e.sqlState, e.getMessage());
        }
    }

    private Plan plan(Statement s, PlanContext ctx) {
        Plan session = sessionPlan(s, ctx);
        if (session != null) {
            return session;
        }
        if (s instanceof Query q) {
            Plan local = localPlan(q);
            if (local != null) {
                return local;
            }
        }
        Plan proxy = proxyPlan(s);
        if (proxy != null) {
            return proxy;
        }
        if (s instanceof UtilityStatement.Call call) {
            return call(call);
        }
        if (topology.shardCount() == 1) {
            // One shard holds everything: no statement needs analysis beyond its session effects.
            return route(s.kind(), new Target.Shard(0), null, isWrite(s), s, false);
        }
        if (s instanceof Query q) {
            return new SelectPlanner(ctx).plan(q);
        }
        if (s instanceof Insert i) {
            return new WritePlanner(ctx).insert(i);
        }
        if (s instanceof Update u) {
            return new WritePlanner(ctx).update(u);
        }
        if (s instanceof Delete d) {
            return new WritePlanner(ctx).delete(d);
        }
        if (s instanceof Ddl ddl) {
            return ddl(ddl, ctx);
        }
        return utility(s, ctx);
    }

    /**
     * Sequences live on the default shard (every shard has a copy, so that tables whose columns draw
     * from them can be created everywhere, but only the default shard's counts): a statement that
     * draws from or reads one runs there, or is refused.
     */
    private Plan sequencesOnTheDefaultShard(Statement s, Plan plan) {
        if (plan instanceof Plan.Route r && r.effects().pin().pin() == Pin.SEQUENCE) {
            if (r.target() instanceof Target.AnyShard) {
                return new Plan.Route(r.kind(), new Target.DefaultShard(false), r.access(), r.effects(), r.several());
            }
            if (r.target() instanceof Target.DefaultShard
                    || r.target() instanceof Target.Shard shard && shard.shard() == topology.defaultShard()) {
                return plan;
            }
        } else if (!(plan instanceof Plan.InsertSplit) || !usesSequence(s)) {
            return plan;
        }
        return refuse(s, "a sequence lives on the default shard, and this statement uses one while it runs on other"
                + " shards (" + (plan instanceof Plan.Route r ? r.target() : "rows by their key") + "): draw the value"
                + " first (SELECT NEXTVAL(seq)), or leave the column out for its DEFAULT NEXTVAL(seq)");
    }

    private static boolean usesSequence(Statement s) {
        boolean[] found = {false};
        visitExprs(s, e -> found[0] |= usesSequence(e));
        return found[0];
    }

    // ---- session statements ------------------------------------------------------------------

    private Plan sessionPlan(Statement s, PlanContext ctx) {
        if (s instanceof SetStatement set) {
            List<SessionAction.SetTarget> targets = new ArrayList<>();
            for (SetStatement.Item item : set.items()) {
                if (item instanceof SetStatement.Variable v) {
                    if (v.user()) {
                        targets.add(new SessionAction.UserVariable(v.name()));
                        continue;
                    }
                    if (v.scope() == VariableScope.GLOBAL || v.scope() == VariableScope.PERSIST
                            || v.scope() == VariableScope.PERSIST_ONLY) {
                        return refuse(s, "SET GLOBAL would change one shard's server only: set server variables for"
                                + " every shard in the cleave config (server.options)");
                    }
                    String name = v.name().toLowerCase(Locale.ROOT);
                    if (name.equals("autocommit")) {
                        targets.add(new SessionAction.Autocommit(autocommitLiteral(v.value()),
                                v.value() instanceof Expr.Slot slot ? slot.slot() : -1));
                    } else {
                        targets.add(new SessionAction.SystemVariable(name));
                    }
                } else {
                    targets.add(new SessionAction.Names());
                }
            }
            return new Plan.Session(s.kind(), new SessionAction.SetVariables(targets));
        }
        if (s instanceof UtilityStatement.Use use) {
            return new Plan.Session(s.kind(), new SessionAction.Use(use.schema().value()));
        }
        if (s instanceof TransactionStatement t) {
            if (t instanceof TransactionStatement.Begin b) {
                List<String> characteristics = new ArrayList<>();
                if (b.consistentSnapshot()) {
                    characteristics.add("WITH CONSISTENT SNAPSHOT");
                }
                if (b.readOnly()) {
                    characteristics.add("READ ONLY");
                }
                if (b.readWrite()) {
                    characteristics.add("READ WRITE");
                }
                return new Plan.Session(s.kind(), new SessionAction.Begin(
                        "START TRANSACTION" + (characteristics.isEmpty() ? "" : " " + String.join(", ", characteristics))));
            }
            if (t instanceof TransactionStatement.Commit c) {
                return new Plan.Session(s.kind(), new SessionAction.Commit(Boolean.TRUE.equals(c.chain()),
                        Boolean.TRUE.equals(c.release())));
            }
            if (t instanceof TransactionStatement.Rollback r) {
                if (r.savepoint() != null) {
                    return new Plan.Session(s.kind(), new SessionAction.Savepoint(SessionAction.SavepointOp.ROLLBACK_TO,
                            r.savepoint().value()));
                }
                return new Plan.Session(s.kind(), new SessionAction.Rollback(Boolean.TRUE.equals(r.chain()),
                        Boolean.TRUE.equals(r.release())));
            }
            if (t instanceof TransactionStatement.Savepoint sp) {
                return new Plan.Session(s.kind(), new SessionAction.Savepoint(
                        sp.release() ? SessionAction.SavepointOp.RELEASE : SessionAction.SavepointOp.SET, sp.name().value()));
            }
            if (t instanceof TransactionStatement.SetTransaction st) {
                if (st.scope() == VariableScope.GLOBAL || st.scope() == VariableScope.PERSIST
                        || st.scope() == VariableScope.PERSIST_ONLY) {
                    return refuse(s, "SET GLOBAL TRANSACTION would change one shard's server only: set it for every"
                            + " shard in the cleave config (server.options)");
                }
                boolean session = st.scope() == VariableScope.SESSION || st.scope() == VariableScope.LOCAL;
                String statement = "SET " + (session ? "SESSION " : "") + "TRANSACTION "
                        + (st.isolation() != null ? "ISOLATION LEVEL " + st.isolation() : "")
                        + (st.isolation() != null && st.accessMode() != null ? ", " : "")
                        + (st.accessMode() != null ? st.accessMode() : "");
                return new Plan.Session(s.kind(), new SessionAction.SetTransaction(session, statement));
            }
            return xa((TransactionStatement.Xa) t, ctx.tokens);
        }
        return null;
    }

    /** An application's XA statement: kept by the proxy with its branch on one shard (see ApplicationXa in the proxy). */
    private static Plan xa(TransactionStatement.Xa xa, io.cleave.router.sql.lex.TokenBuffer tokens) {
        SessionAction.XaOp op = xa.action().equals("BEGIN") ? SessionAction.XaOp.START
                : SessionAction.XaOp.valueOf(xa.action());
        List<Integer> slots = new ArrayList<>();
        for (Expr part : xa.xidParts()) {
            slots.add(part instanceof Expr.Slot slot ? slot.slot() : -1);
        }
        boolean onePhase = false;
        boolean option = false;
        for (int i = xa.xid().end(); i < xa.span().end(); i++) {
            onePhase |= tokens.textEqualsIgnoreCase(i, "ONE");
            option |= tokens.textEqualsIgnoreCase(i, "JOIN") || tokens.textEqualsIgnoreCase(i, "RESUME")
                    || tokens.textEqualsIgnoreCase(i, "SUSPEND") || tokens.textEqualsIgnoreCase(i, "MIGRATE");
        }
        return new Plan.Session(xa.kind(), new SessionAction.Xa(op, xa.xid().first(), xa.xid().end(), slots, onePhase,
                option));
    }

    private static Boolean autocommitLiteral(Expr value) {
        if (value instanceof Expr.Literal l) {
            switch (l.kind()) {
                case TRUE:
                    return true;
                case FALSE:
                    return false;
                case WORD:
                    if (l.text().equalsIgnoreCase("ON")) {
                        return true;
                    }
                    if (l.text().equalsIgnoreCase("OFF")) {
                        return false;
                    }
                    return null;
                default:
                    return null;
            }
        }
        return null;
    }

    /** SELECT LAST_INSERT_ID() / ROW_COUNT() / FOUND_ROWS() / CONNECTION_ID() / DATABASE() / USER() / CURRENT_USER() alone: answered by the proxy. */
    private Plan localPlan(Query q) {
        if (!(q instanceof Select s) || !s.from().isEmpty() || s.items().size() != 1 || s.where() != null
                || !(s.items().get(0) instanceof SelectItem.Column c)
                || !(c.expr() instanceof Expr.FunctionCall f) || f.schema() != null || f.isWindow()) {
            return null;
        }
        String name = f.upperName();
        if (!LOCAL_FUNCTIONS.contains(name) || !f.args().isEmpty()) {
            return null;
        }
        LocalQuery query = switch (name) {
            case "LAST_INSERT_ID" -> LocalQuery.LAST_INSERT_ID;
            case "ROW_COUNT" -> LocalQuery.ROW_COUNT;
            case "FOUND_ROWS" -> LocalQuery.FOUND_ROWS;
            case "CONNECTION_ID" -> LocalQuery.CONNECTION_ID;
            case "USER", "SESSION_USER", "SYSTEM_USER" -> LocalQuery.USER;
            case "CURRENT_USER" -> LocalQuery.CURRENT_USER;
            default -> LocalQuery.DATABASE;
        };
        return new Plan.Local(q.kind(), query, c.alias(), f.span().first(), f.span().end());
    }

    // ---- DDL and utility statements --------------------------------------------------------

    private Plan ddl(Ddl ddl, PlanContext ctx) {
        if (ddl instanceof Ddl.ObjectDdl object && (object.kind().name().startsWith("CREATE_")
                || object.kind().name().startsWith("ALTER_")) && object.kind() != StatementKind.CREATE_PROCEDURE) {
            // A procedure is created everywhere; each CALL decides where it can run (RoutinePlacement).
            String refusal = gate.objectRefusal(object, ctx);
            if (refusal != null) {
                return refuse(ddl, refusal);
            }
        }
        boolean temporary = ddl instanceof Ddl.CreateTable ct && ct.temporary()
                || ddl instanceof Ddl.DropTable dt && dt.temporary() || ddl instanceof Ddl.Sequence seq && seq.temporary();
        if (temporary) {
            // Temporary tables (and sequences) live in one connection: keep them on the default shard, pinned.
            Pin pin = ddl instanceof Ddl.CreateTable || ddl.kind() == StatementKind.CREATE_SEQUENCE ? Pin.TEMPORARY_TABLE
                    : Pin.DROP_TEMPORARY_TABLE;
            return new Plan.Route(ddl.kind(), new Target.Shard(topology.defaultShard()), Plan.Access.WRITE,
                    Effects.of(pin, false, false), null);
        }
        if (ddl instanceof Ddl.CreateTable ct && ct.asQuery() != null) {
            return refuse(ddl, "CREATE TABLE ... SELECT would copy rows from where each shard stands: not supported"
                    + " across shards (create the table, then INSERT ... SELECT on one shard)");
        }
        if (ddl.kind() == StatementKind.CREATE_EVENT || ddl.kind() == StatementKind.ALTER_EVENT
                || ddl.kind() == StatementKind.DROP_EVENT) {
            // An event fires on the server that holds it: on the default shard only, it runs once, as on one server.
            return Plan.Route.of(ddl.kind(), new Target.Shard(topology.defaultShard()), Plan.Access.WRITE, null);
        }
        if (ddl instanceof Ddl.Sequence) {
            // Created everywhere (a column's DEFAULT NEXTVAL(seq) must find it on every shard); only the
            // default shard's counts: NEXTVAL, SETVAL and LASTVAL go there.
            return Plan.Route.of(ddl.kind(), new Target.AllShards(), Plan.Access.WRITE, Plan.FanOutWrite.allAlike());
        }
        if (ddl instanceof Ddl.TableMaintenance) {
            return Plan.Route.of(ddl.kind(), new Target.AllShards(), Plan.Access.READ,
                    Plan.Merge.concatenation(ScatterRule.CONCATENATED_REPORTS));
        }
        String uniqueRefusal = ShardLocalKeys.refusal(ddl, topology, ctx.tokens);
        if (uniqueRefusal != null) {
            return refuse(ddl, uniqueRefusal);
        }
        // Every shard has every table and schema: structure changes go everywhere.
        return Plan.Route.of(ddl.kind(), new Target.AllShards(), Plan.Access.WRITE, Plan.FanOutWrite.allAlike());
    }

    private Plan utility(Statement s, PlanContext ctx) {
        if (s instanceof UtilityStatement.Show show) {
            return show(show);
        }
        if (s instanceof UtilityStatement.Describe) {
            return anyShard(s);
        }
        if (s instanceof UtilityStatement.Explain e) {
            Plan inner = plan(e.statement(), ctx);
            if (inner instanceof Plan.Route r) {
                return Plan.Route.of(s.kind(), r.target(), Plan.Access.READ, Plan.Refuse.notSupported(s.kind(),
                        "EXPLAIN of a statement that runs on several shards: use the proxy's EXPLAIN CLEAVE to see its"
                                + " plan, or EXPLAIN it with a sharding key"));
            }
            if (inner instanceof Plan.InsertSplit split) {
                return refuse(s, "EXPLAIN of an INSERT into the sharded table " + split.table()
                        + " is not supported across shards");
            }
            return inner instanceof Plan.Refuse ? inner : anyShard(s);
        }
        if (s instanceof UtilityStatement.LockTables lock) {
            KeyAnalyzer analyzer = new KeyAnalyzer(topology);
            QueryParts.Block block = analyzer.newBlock();
            for (UtilityStatement.TableLock t : lock.locks()) {
                analyzer.table(t.table(), t.alias() != null ? t.alias() : t.table().name(), block);
            }
            Object target = analyzer.target();
            if (target instanceof String refusal) {
                return refuse(s, refusal);
            }
            if (!(target instanceof Target.Shard)) {
                List<String> names = new ArrayList<>();
                for (UtilityStatement.TableLock t : lock.locks()) {
                    names.add(t.table().name());
                }
                return new Plan.Session(s.kind(), new SessionAction.UnlockedTables(names));
            }
            return new Plan.Route(s.kind(), (Target) target, Plan.Access.READ, Effects.of(Pin.LOCK_TABLES, false, false),
                    null);
        }
        if (s instanceof UtilityStatement.UnlockTables) {
            return new Plan.Route(s.kind(), new Target.AnyShard(), Plan.Access.READ,
                    Effects.of(Pin.UNLOCK_TABLES, false, false), null);
        }
        if (s instanceof UtilityStatement.Prepare) {
            return new Plan.Route(s.kind(), new Target.Shard(topology.defaultShard()), Plan.Access.READ,
                    Effects.of(Pin.SQL_PREPARE, false, false), null);
        }
        if (s instanceof UtilityStatement.Execute) {
            return new Plan.Route(s.kind(), new Target.Shard(topology.defaultShard()), Plan.Access.WRITE,
                    Effects.of(Pin.SQL_EXECUTE, false, false), null);
        }
        if (s instanceof UtilityStatement.Deallocate) {
            return new Plan.Route(s.kind(), new Target.Shard(topology.defaultShard()), Plan.Access.READ,
                    Effects.of(Pin.SQL_DEALLOCATE, false, false), null);
        }
        if (s instanceof UtilityStatement.Do d) {
            Pin pin = Pin.NONE;
            boolean lastInsertId = false;
            for (Expr e : d.exprs()) {
                pin = pin == Pin.NONE ? namedLockPin(e) : pin;
                lastInsertId |= usesLastInsertId(e);
                if (Exprs.containsSubquery(e)) {
                    return refuse(s, "DO with a subquery is not supported across shards");
                }
            }
            Target target = pin != Pin.NONE ? new Target.Shard(topology.defaultShard())
                    : CatalogReads.answersDiffer(s) ? new Target.DefaultShard(false) : new Target.AnyShard();
            return new Plan.Route(s.kind(), target, Plan.Access.READ, Effects.of(pin, lastInsertId, false), null);
        }
        if (s instanceof UtilityStatement.LoadData load) {
            TableRule rule = topology.ruleFor(load.table().name());
            if (rule instanceof TableRule.Unsharded u) {
                return Plan.Route.of(s.kind(), new Target.Shard(u.homeShard()), Plan.Access.WRITE, null);
            }
            return refuse(s, "LOAD DATA into the " + (rule instanceof TableRule.Sharded ? "sharded" : "reference")
                    + " table " + load.table().name() + " is not supported: insert the rows with INSERT");
        }
        UtilityStatement.Other other = (UtilityStatement.Other) s;
        switch (other.kind()) {
            case FLUSH:
                return Plan.Route.of(s.kind(), new Target.AllShards(), Plan.Access.READ, Plan.FanOutWrite.allAlike());
            case OTHER:
                return unknownStatement(s, ctx);
            default:
                return refuse(s, other.words() + " is not supported through the proxy");
        }
    }

    /**
     * Statements the proxy runs itself whatever the shards hold, one shard or many: account
     * statements (every shard's grant tables hold the accounts), SET ROLE (session state), KILL
     * (of the proxy's own connections); SHUTDOWN and RESTART are refused. Null for any other.
     */
    private Plan proxyPlan(Statement s) {
        if (s instanceof UtilityStatement.Kill) {
            // The id is a connection of the proxy's, not of a shard: the proxy ends it.
            return new Plan.Local(s.kind(), LocalQuery.KILL, null, 0, 0);
        }
        if (!(s instanceof UtilityStatement.Other other)) {
            return null;
        }
        switch (other.kind()) {
            case FLUSH:
                // FLUSH PRIVILEGES: the proxy reads the grant tables again too.
                return other.words().equals("FLUSH PRIVILEGES")
                        ? new Plan.Local(s.kind(), LocalQuery.ACCOUNT_STATEMENT, null, 0, 0) : null;
            case GRANT:
            case REVOKE:
            case USER_ADMIN:
            case SET_PASSWORD:
                // Accounts live in every shard's grant tables: the proxy applies the statement to all of them.
                return new Plan.Local(s.kind(), LocalQuery.ACCOUNT_STATEMENT, null, 0, 0);
            case SET_ROLE:
                return new Plan.Local(s.kind(), other.words().startsWith("SET DEFAULT") ? LocalQuery.ACCOUNT_STATEMENT
                        : LocalQuery.SET_ROLE, null, 0, 0);
            case OTHER:
                if (other.words().startsWith("SHUTDOWN") || other.words().startsWith("RESTART")) {
                    return refuse(s, other.words() + " would stop one shard behind the proxy: stop Cleave with"
                            + " 'cleave down', or restart it with 'cleave up'");
                }
                return null;
            default:
                return null;
        }
    }

    /**
     * SHOW: what the previous statement left (warnings), the proxy's own answers (status, process
     * list) and the rest, which the catalog of the table's home or of the default shard answers, as
     * one server would (row counts, AUTO_INCREMENT values and server variables differ by shard).
     */
    private Plan show(UtilityStatement.Show show) {
        String what = show.what();
        boolean previous = what.equals("WARNINGS") || what.equals("ERRORS") || what.startsWith("COUNT");
        if (previous || what.equals("STATUS") || what.equals("PROCESSLIST")) {
            // The proxy answers some of these itself (its clients, the client's TLS): see PlanExecutor.
            return new Plan.Route(show.kind(), new Target.AnyShard(), Plan.Access.READ,
                    Effects.of(Pin.NONE, false, previous), null);
        }
        if (show.table() != null && !isSystemTable(show.table())
                && topology.ruleFor(show.table().name()) instanceof TableRule.Unsharded u) {
            return Plan.Route.of(show.kind(), new Target.Shard(u.homeShard()), Plan.Access.READ, null);
        }
        boolean variables = what.equals("VARIABLES") && show.scope() != VariableScope.GLOBAL;
        return Plan.Route.of(show.kind(), new Target.DefaultShard(variables), Plan.Access.READ, null);
    }

    /**
     * CALL: it runs where its procedure can see what one server would show it, which only the
     * procedure's body tells (see {@link io.cleave.router.routine.RoutinePlacement}); the user
     * variables among its arguments are read back after it (an OUT or INOUT parameter sets them).
     */
    private static Plan call(UtilityStatement.Call call) {
        List<Integer> slots = new ArrayList<>(call.args().size());
        for (Expr arg : call.args()) {
            slots.add(arg instanceof Expr.Slot slot ? slot.slot() : -1);
        }
        return new Plan.Route(call.kind(), new Target.Routine(call.procedure().schema(), call.procedure().name(), slots,
                null), Plan.Access.WRITE, Effects.NONE, null);
    }

    /**
     * A statement the parser knows only by its first words: the default shard's server judges it
     * (it may be valid there, or answer with its own syntax error), unless it names rows the
     * default shard does not hold alone.
     */
    private Plan unknownStatement(Statement s, PlanContext ctx) {
        String refusal = gate.unparsedRefusal(ctx.tokens, "it knows the statement only by its first words, "
                + ((UtilityStatement.Other) s).words());
        if (refusal != null) {
            return refuse(s, refusal);
        }
        return Plan.Route.of(s.kind(), new Target.Shard(topology.defaultShard()), Plan.Access.WRITE, null);
    }

    // ---- helpers shared by the statement planners ------------------------------------------

    static Plan.Refuse refuse(Statement s, String message) {
        return Plan.Refuse.notSupported(s.kind(), message);
    }

    private static Plan anyShard(Statement s) {
        return Plan.Route.of(s.kind(), new Target.AnyShard(), Plan.Access.READ, null);
    }

    private Plan route(StatementKind kind, Target target, Plan.Spread several, boolean write, Statement s,
                       boolean locking) {
        return new Plan.Route(kind, target, access(write, locking),
                Effects.of(pinOf(s), usesLastInsertId(s), previousConnection(s)), several);
    }

    static Plan.Access access(boolean write, boolean locking) {
        return write ? Plan.Access.WRITE : locking ? Plan.Access.LOCKING_READ : Plan.Access.READ;
    }

    static boolean isWrite(Statement s) {
        StatementKind k = s.kind();
        return k == StatementKind.INSERT || k == StatementKind.REPLACE || k == StatementKind.UPDATE
                || k == StatementKind.DELETE || k.isDdl() || k == StatementKind.LOAD_DATA || k == StatementKind.CALL;
    }

    /** Named locks and connection-bound state a statement touches. */
    static Pin pinOf(Statement s) {
        if (s instanceof Ddl.CreateTable ct && ct.temporary()) {
            return Pin.TEMPORARY_TABLE;
        }
        if (s instanceof Ddl.DropTable dt && dt.temporary()) {
            return Pin.DROP_TEMPORARY_TABLE;
        }
        switch (s.kind()) {
            case LOCK_TABLES:
                return Pin.LOCK_TABLES;
            case UNLOCK_TABLES:
                return Pin.UNLOCK_TABLES;
            case PREPARE:
                return Pin.SQL_PREPARE;
            case EXECUTE:
                return Pin.SQL_EXECUTE;
            case DEALLOCATE_PREPARE:
                return Pin.SQL_DEALLOCATE;
            default:
                break;
        }
        if (s instanceof Ddl.Sequence seq && seq.temporary()) {
            return seq.kind() == StatementKind.CREATE_SEQUENCE ? Pin.TEMPORARY_TABLE : Pin.DROP_TEMPORARY_TABLE;
        }
        Pin[] found = {Pin.NONE};
        visitExprs(s, e -> {
            if (found[0] == Pin.NONE) {
                found[0] = namedLockPin(e);
            }
            if (found[0] == Pin.NONE && usesSequence(e)) {
                found[0] = Pin.SEQUENCE;
            }
        });
        return found[0];
    }

    /** Whether an expression draws from or reads a sequence (NEXTVAL, SETVAL, LASTVAL and their other spellings). */
    static boolean usesSequence(Expr root) {
        return Exprs.anyMatch(root, e -> e instanceof Expr.NextValue || e instanceof Expr.PreviousValue
                || e instanceof Expr.FunctionCall f && f.schema() == null
                && (f.upperName().equals("LASTVAL") || f.upperName().equals("SETVAL")));
    }

    private static Pin namedLockPin(Expr root) {
        Pin[] found = {Pin.NONE};
        Exprs.walk(root, e -> {
            if (e instanceof Expr.FunctionCall f && found[0] == Pin.NONE) {
                String n = f.upperName();
                if (n.equals("GET_LOCK")) {
                    found[0] = Pin.NAMED_LOCK;
                } else if (n.equals("RELEASE_LOCK") || n.equals("RELEASE_ALL_LOCKS")) {
                    found[0] = Pin.RELEASE_NAMED_LOCK;
                }
            }
        });
        return found[0];
    }

    static boolean usesLastInsertId(Statement s) {
        boolean[] found = {false};
        visitExprs(s, e -> found[0] |= usesLastInsertId(e));
        return found[0];
    }

    private static boolean usesLastInsertId(Expr root) {
        return Exprs.anyMatch(root, e -> e instanceof Expr.FunctionCall f && f.args().isEmpty()
                && f.upperName().equals("LAST_INSERT_ID"));
    }

    static boolean previousConnection(Statement s) {
        boolean[] found = {false};
        visitExprs(s, e -> found[0] |= Exprs.anyMatch(e, x -> x instanceof Expr.FunctionCall f
                && (f.upperName().equals("FOUND_ROWS") || f.upperName().equals("ROW_COUNT"))));
        return found[0];
    }

    /** Every expression of a statement, including those of nested queries. */
    static void visitExprs(Statement s, java.util.function.Consumer<Expr> visitor) {
        new ExpressionVisitor(visitor).statement(s);
    }

    static boolean isSystemTable(TableName name) {
        return name.schema() != null && KeyAnalyzer.SYSTEM_SCHEMAS.contains(name.schema().toLowerCase(Locale.ROOT));
    }
}
