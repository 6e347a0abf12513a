package io.cleave.router.plan;

import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.digest.DigestKey;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.StatementBounds;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;
import io.cleave.router.sql.lex.VersionComments;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.sql.parse.SqlSyntaxException;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Statement text in, plan out. The hot path lexes the bytes and computes the digest (no
 * allocation once warm), then finds the plan cached under the digest; only a statement shape
 * never seen before is parsed and planned. Thread-safe; each caller brings its own {@link Analysis}.
 *
 * <p>Table rules can change while the router serves (a table sharded online, an import attached):
 * {@link #retarget} starts a new generation with its own planner, gate and empty caches. Every
 * analysis records its generation, so a plan kept across statements (a prepared statement's) is
 * known to be stale and planned again.
 */
public final class Router {

    /** Lexing modes (see {@link #modeIndex}): a plan cache each. */
    static final int MODES = 8;

    /** One topology's planner, gate and plans. */
    private static final class Generation {
        final long id;
        final Topology topology;
        final Planner planner;
        final PlanGate gate;
        @SuppressWarnings("unchecked")
        final ConcurrentHashMap<DigestKey, Plan>[] caches = new ConcurrentHashMap[MODES];

        Generation(long id, Topology topology) {
            this.id = id;
            this.topology = topology;
            this.planner = new Planner(topology);
            this.gate = new PlanGate(topology);
            for (int i = 0; i < caches.length; i++) {
                caches[i] = new ConcurrentHashMap<>();
            }
        }
    }

    private final SqlParser parser = new SqlParser();
    private final int capacity;
    private volatile Generation generation;
    private volatile VersionComments versions = VersionComments.DEFAULT;

    public Router(Topology topology) {
        this(topology, 20_000);
    }

    /** {@code capacity}: plans kept per SQL mode; 0 keeps none (every statement is parsed and planned). */
    public Router(Topology topology, int capacity) {
        this.capacity = capacity;
        this.generation = new Generation(1, topology);
    }

    public Topology topology() {
        return generation.topology;
    }

    /** Which topology plans come from; changes with every {@link #retarget}. */
    public long generation() {
        return generation.id;
    }

    /**
     * Plans by {@code topology} from now on (a no-op when it is the current one). Statements being
     * analyzed meanwhile finish with the plans of the generation they started in.
     */
    public synchronized void retarget(Topology topology) {
        Generation current = generation;
        if (!current.topology.equals(topology)) {
            generation = new Generation(current.id + 1, topology);
        }
    }

    static int modeIndex(SqlMode mode) {
        return (mode.asciiOnly() ? 4 : 0) + (mode.ansiQuotes() ? 2 : 0) + (mode.noBackslashEscapes() ? 1 : 0);
    }

    /**
     * The shards' server version (from their handshake): which version comments it runs decides
     * what a statement says, so plans made under another version are dropped.
     */
    public void serverVersion(String version) {
        VersionComments next = VersionComments.of(version);
        if (!next.equals(versions)) {
            versions = next;
            for (ConcurrentHashMap<DigestKey, Plan> cache : generation.caches) {
                cache.clear();
            }
        }
    }

    /** Analyzes {@code sql[offset, offset + length)} into {@code into}; returns it. */
    public Analysis analyze(byte[] sql, int offset, int length, SqlMode mode, Analysis into) {
        return analyze(sql, offset, length, mode, into, generation);
    }

    private Analysis analyze(byte[] sql, int offset, int length, SqlMode mode, Analysis into, Generation gen) {
        into.lexer(mode, versions).lex(sql, offset, length, into.tokens);
        into.digest.compute(into.tokens);
        into.slots.bind(into.tokens, into.digest);
        into.generation = gen.id;
        ConcurrentHashMap<DigestKey, Plan> cache = gen.caches[modeIndex(mode)];
        Plan plan = cache.get(into.digest.lookupKey());
        into.cached = plan != null;
        if (plan == null) {
            plan = planFresh(into, mode, gen);
            if (capacity > 0) {
                if (cache.size() >= capacity) {
                    // Shapes beyond the working set (ad-hoc queries): start over rather than track recency.
                    cache.clear();
                }
                cache.put(DigestKey.copyOf(into.digest.lookupKey()), plan);
            }
        }
        if (plan instanceof Plan.Route r && r.effects().pin().pin() == Pin.SQL_PREPARE && gen.topology.shardCount() > 1) {
            // The statement text of SQL PREPARE is a value, not part of the shape: judged each time.
            plan = sqlPrepare(into, mode, plan, gen);
        }
        into.plan = plan;
        return into;
    }

    /**
     * {@code PREPARE s FROM '...'}: the statement is prepared and later executed on the default
     * shard, so it may only read what the default shard holds alone; from a user variable its
     * text is unknown here.
     */
    private Plan sqlPrepare(Analysis a, SqlMode mode, Plan plan, Generation gen) {
        TokenBuffer tokens = a.tokens;
        int last = tokens.size() - 1;
        while (last > 0 && tokens.type(last) == TokenType.SEMICOLON) {
            last--;
        }
        if (tokens.type(last) != TokenType.STRING) {
            return refusePrepare("its text comes from a user variable, which the proxy cannot check");
        }
        int slot = a.digest.slotOfToken(last);
        String text = slot >= 0 ? a.slots.asString(slot, java.nio.charset.StandardCharsets.UTF_8) : tokens.text(last);
        byte[] innerText = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Plan inner = analyze(innerText, 0, innerText.length, mode, new Analysis(), gen).plan();
        if (inner instanceof Plan.MultiStatement m) {
            inner = m.plan();
        }
        if (inner instanceof Plan.Refuse r) {
            return r;
        }
        boolean defaultShard = inner instanceof Plan.Route r && r.several() == null
                && (r.target() instanceof Target.AnyShard || r.target() instanceof Target.DefaultShard
                || r.target() instanceof Target.Shard s && s.shard() == gen.topology.defaultShard());
        return defaultShard || inner instanceof Plan.Session ? plan
                : refusePrepare("it reads or writes tables whose rows are not all on the default shard, where SQL"
                + " PREPARE and EXECUTE run");
    }

    private static Plan refusePrepare(String why) {
        return new Plan.Refuse(StatementKind.PREPARE, PlanningException.NOT_SUPPORTED,
                PlanningException.NOT_SUPPORTED_STATE, "SQL PREPARE of this statement is not supported across shards: "
                + why + " (prepare it through the protocol instead, as drivers do)");
    }

    public Analysis analyze(byte[] sql, SqlMode mode, Analysis into) {
        return analyze(sql, 0, sql.length, mode, into);
    }

    /** Cached plans per SQL mode (for metrics and tests). */
    public int cachedPlans() {
        int n = 0;
        for (ConcurrentHashMap<DigestKey, Plan> c : generation.caches) {
            n += c.size();
        }
        return n;
    }

    /** Plans a statement shape seen for the first time; every plan passes the gate. */
    private Plan planFresh(Analysis a, SqlMode mode, Generation gen) {
        TokenBuffer tokens = a.tokens;
        Plan unreadable = PlanGate.lexRefusal(tokens);
        if (unreadable != null) {
            return unreadable;
        }
        if (isExplainCleave(tokens)) {
            return new Plan.Local(StatementKind.EXPLAIN, LocalQuery.EXPLAIN_CLEAVE, null, 2, tokens.size());
        }
        Plan guarded = ProtectedSchema.refusal(tokens);
        if (guarded != null) {
            return guarded;
        }
        if (HiddenRows.reads(tokens) && secondStatement(tokens) < 0) {
            String elsewhere = gen.gate.unparsedRefusal(tokens, "it reads Cleave's hidden rows of the server's own"
                    + " tables, which the proxy filters on the default shard");
            return elsewhere != null ? Plan.Refuse.notSupported(StatementKind.SELECT, elsewhere)
                    : new Plan.Local(StatementKind.SELECT, LocalQuery.FILTERED_READ, null, 0, 0);
        }
        int second = secondStatement(tokens);
        if (second >= 0) {
            return withSessionValues(new Plan.MultiStatement(second,
                    located(gen.gate.admit(multiStatement(tokens, mode, gen)), a)), tokens, second);
        }
        Plan plan;
        try {
            Statement statement = parser.parse(tokens, a.digest);
            plan = gen.gate.admit(gen.planner.plan(statement, tokens, a.digest));
        } catch (SqlSyntaxException e) {
            plan = unparsed(a, e, gen);
        }
        return withSessionValues(located(plan, a), tokens, tokens.size());
    }

    /**
     * A statement calling ROW_COUNT() or FOUND_ROWS() inside other expressions (in its first
     * {@code end} tokens: the first statement of a text of several) is planned again once the proxy
     * has written the session's values in; alone in a SELECT the proxy answers them itself.
     */
    private static Plan withSessionValues(Plan plan, TokenBuffer tokens, int end) {
        Plan first = plan instanceof Plan.MultiStatement m ? m.plan() : plan;
        if (first instanceof Plan.Local || !SessionCalls.any(tokens, end)) {
            return plan;
        }
        Plan values = new Plan.Local(first.kind(), LocalQuery.SESSION_VALUES, null, 0, end);
        return plan instanceof Plan.MultiStatement m ? new Plan.MultiStatement(m.secondStatement(), values) : values;
    }

    /**
     * A routed statement with what only its text tells about its effects: the names its pins take
     * and the user variables it assigns, found here once for every statement of its shape.
     */
    private static Plan located(Plan plan, Analysis a) {
        if (plan instanceof Plan.Route r) {
            return r.with(r.effects().locate(a.tokens, a.digest));
        }
        return plan;
    }

    /**
     * A statement the parser does not understand: with one shard, or when nothing in it names
     * rows the default shard does not hold alone, the server can judge it (default shard);
     * otherwise it is refused, since its rows could be anywhere.
     */
    private static Plan unparsed(Analysis a, SqlSyntaxException e, Generation gen) {
        Topology topology = gen.topology;
        if (a.tokens.size() == 0) {
            // Nothing but comments (a version comment for another server, as dump files have them):
            // the shard answers as the server does, and no shard's rows are involved.
            return Plan.Route.of(StatementKind.OTHER, new Target.AnyShard(), Plan.Access.READ, null);
        }
        if (topology.shardCount() == 1) {
            return unparsedRoute(topology.defaultShard());
        }
        if (e.tokenIndex() >= a.tokens.size()) {
            // It ends before it is complete: a syntax error, whatever it names (the message quotes nothing).
            return new Plan.Refuse(StatementKind.OTHER, e.errorCode(), SqlSyntaxException.SQLSTATE, e.getMessage());
        }
        String refusal = gen.gate.unparsedRefusal(a.tokens, unreadableAt(a, e));
        return refusal == null ? unparsedRoute(topology.defaultShard())
                : new Plan.Refuse(StatementKind.OTHER, PlanningException.NOT_SUPPORTED,
                PlanningException.NOT_SUPPORTED_STATE, refusal);
    }

    /** Where the parser stopped, for a refusal that may be cached: literals shown as '?'. */
    static String unreadableAt(Analysis a, SqlSyntaxException e) {
        int at = e.tokenIndex();
        String token = a.digest.slotOfToken(at) >= 0 ? "?" : a.tokens.text(at);
        return "at '" + token + "': " + e.detail();
    }

    private static Plan unparsedRoute(int shard) {
        return Plan.Route.of(StatementKind.OTHER, new Target.Shard(shard), Plan.Access.WRITE, null);
    }

    /**
     * {@code EXPLAIN CLEAVE <statement>}: the proxy's own EXPLAIN, which no server would accept
     * ({@code EXPLAIN t c} describes column c of table t, and a statement is no column name).
     */
    private static boolean isExplainCleave(TokenBuffer tokens) {
        return tokens.size() > 2 && tokens.type(0) == TokenType.KEYWORD && tokens.text(0).equalsIgnoreCase("EXPLAIN")
                && tokens.type(1) == TokenType.IDENTIFIER && tokens.text(1).equalsIgnoreCase("CLEAVE")
                && tokens.type(2) != TokenType.EOF && tokens.type(2) != TokenType.SEMICOLON;
    }

    /**
     * The first token of a second statement in the text, or -1: after the semicolon that ends the
     * first (not one inside a compound statement's body).
     */
    private static int secondStatement(TokenBuffer tokens) {
        int i = StatementBounds.end(tokens, 0);
        while (tokens.type(i) == TokenType.SEMICOLON) {
            i++;
        }
        return i < tokens.size() ? i : -1;
    }

    /**
     * Several statements in one COM_QUERY: each is planned; the text can go as it is when they all
     * go to the same fixed shard and change no session state beyond user variables (read back
     * after it). One of them may be a CALL (as drivers send {@code SET @_p_0 = 1; CALL p(@_p_0)}):
     * the text then goes where the procedure runs, which must suit the others too.
     */
    private Plan multiStatement(TokenBuffer tokens, SqlMode mode, Generation gen) {
        Integer common = null;
        Target.Routine call = null;
        List<String> assigned = new ArrayList<>();
        int n = tokens.size();
        for (int start = 0; start < n; ) {
            int end = StatementBounds.end(tokens, start);
            if (end > start) {
                int from = tokens.start(start);
                int to = tokens.end(end - 1);
                // Each statement is read with the session's sql_mode: ANSI_QUOTES changes what "x" is.
                Plan p = analyze(tokens.source(), from, to - from, mode, new Analysis(), gen).plan();
                if (p instanceof Plan.Session s && s.action() instanceof SessionAction.SetVariables set
                        && userVariablesOnly(set, assigned)) {
                    start = end + 1;
                    continue;
                }
                if (!(p instanceof Plan.Route r) || r.effects().pin().pin() != Pin.NONE) {
                    return refuseMulti();
                }
                for (String v : r.effects().assignedVariables()) {
                    if (!assigned.contains(v)) {
                        assigned.add(v);
                    }
                }
                if (r.target() instanceof Target.Routine routine) {
                    if (call != null) {
                        return refuseMulti();
                    }
                    call = routine;
                } else if (r.target() instanceof Target.Shard || r.target() instanceof Target.DefaultShard) {
                    int shard = r.target() instanceof Target.Shard s ? s.shard() : gen.topology.defaultShard();
                    if (common != null && common != shard) {
                        return refuseMulti();
                    }
                    common = shard;
                } else if (!(r.target() instanceof Target.AnyShard)) {
                    return refuseMulti();
                }
            }
            start = end + 1;
        }
        Effects effects = new Effects(false, false, PinSpec.NONE, assigned);
        if (call != null) {
            return new Plan.Route(StatementKind.CALL, new Target.Routine(call.schema(), call.procedure(), List.of(),
                    common == null ? -1 : common), Plan.Access.WRITE, effects, null);
        }
        if (common == null) {
            return new Plan.Route(StatementKind.OTHER, new Target.AnyShard(), Plan.Access.READ, effects, null);
        }
        return new Plan.Route(StatementKind.OTHER, new Target.Shard(common), Plan.Access.WRITE, effects, null);
    }

    /** Whether a SET sets user variables only (adding their names to {@code into}). */
    private static boolean userVariablesOnly(SessionAction.SetVariables set, List<String> into) {
        for (SessionAction.SetTarget t : set.targets()) {
            if (!(t instanceof SessionAction.UserVariable)) {
                return false;
            }
        }
        for (SessionAction.SetTarget t : set.targets()) {
            String name = ((SessionAction.UserVariable) t).name();
            if (!into.contains(name)) {
                into.add(name);
            }
        }
        return true;
    }

    private static Plan refuseMulti() {
        return Plan.Refuse.notSupported(StatementKind.OTHER,
                "several statements in one query are only supported when they all run on one fixed shard and change no"
                        + " session state but user variables: send them one at a time");
    }
}
