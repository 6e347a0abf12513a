package io.cleave.router.plan;

import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.digest.DigestKey;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.sql.parse.SqlSyntaxException;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Statement text in, plan out. The hot path lexes the bytes and computes the digest (no
 * allocation once warm), then finds the plan cached under the digest; only a statement shape
 * never seen before is parsed and planned. Thread-safe; each caller brings its own {@link Analysis}.
 *
 * <p>Table rules can change while the router serves (a table sharded online, an import attached):
 * {@link #retarget} starts a new generation with its own planner and an empty cache. Every
 * analysis records its generation, so a plan kept across statements (a prepared statement's) is
 * known to be stale and planned again.
 */
public final class Router {

    /** One topology's planner and plans. */
    private static final class Generation {
        final long id;
        final Topology topology;
        final Planner planner;
        @SuppressWarnings("unchecked")
        final ConcurrentHashMap<DigestKey, Plan>[] caches = new ConcurrentHashMap[4];

        Generation(long id, Topology topology) {
            this.id = id;
            this.topology = topology;
            this.planner = new Planner(topology);
            for (int i = 0; i < caches.length; i++) {
                caches[i] = new ConcurrentHashMap<>();
            }
        }
    }

    private final SqlParser parser = new SqlParser();
    private final int capacity;
    private volatile Generation generation;

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
        return (mode.ansiQuotes() ? 2 : 0) + (mode.noBackslashEscapes() ? 1 : 0);
    }

    /** Analyzes {@code sql[offset, offset + length)} into {@code into}; returns it. */
    public Analysis analyze(byte[] sql, int offset, int length, SqlMode mode, Analysis into) {
        return analyze(sql, offset, length, mode, into, generation);
    }

    private Analysis analyze(byte[] sql, int offset, int length, SqlMode mode, Analysis into, Generation gen) {
        into.lexer(mode).lex(sql, offset, length, into.tokens);
        into.digest.compute(into.tokens);
        into.slots.bind(into.tokens, into.digest);
        into.generation = gen.id;
        ConcurrentHashMap<DigestKey, Plan> cache = gen.caches[modeIndex(mode)];
        Plan plan = cache.get(into.digest.lookupKey());
        into.cached = plan != null;
        if (plan == null) {
            plan = planFresh(into, gen);
            if (capacity > 0) {
                if (cache.size() >= capacity) {
                    // Shapes beyond the working set (ad-hoc queries): start over rather than track recency.
                    cache.clear();
                }
                cache.put(DigestKey.copyOf(into.digest.lookupKey()), plan);
            }
        }
        into.plan = plan;
        return into;
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

    private Plan planFresh(Analysis a, Generation gen) {
        TokenBuffer tokens = a.tokens;
        if (isExplainCleave(tokens)) {
            return new Plan.Local(StatementKind.EXPLAIN, LocalQuery.EXPLAIN_CLEAVE, null, 2, tokens.size());
        }
        if (isMultiStatement(tokens)) {
            return multiStatement(tokens, gen);
        }
        try {
            Statement statement = parser.parse(tokens, a.digest);
            return gen.planner.plan(statement, tokens, a.digest);
        } catch (SqlSyntaxException e) {
            return unparsed(tokens, e, gen.topology);
        }
    }

    /**
     * A statement the parser does not understand: with one shard, or when it names no sharded or
     * reference table, the server can judge it (default shard); otherwise it is refused, since
     * its rows could be anywhere.
     */
    private static Plan unparsed(TokenBuffer tokens, SqlSyntaxException e, Topology topology) {
        if (topology.shardCount() == 1 || namedDistributedTable(tokens, topology) == null) {
            return unparsedRoute(topology.defaultShard());
        }
        return new Plan.Refuse(StatementKind.OTHER, 1064, "42000", e.getMessage());
    }

    /** The first sharded or reference table a statement's words name, or null. */
    static String namedDistributedTable(TokenBuffer tokens, Topology topology) {
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.type(i) == TokenType.IDENTIFIER || tokens.type(i) == TokenType.QUOTED_IDENTIFIER
                    || tokens.type(i) == TokenType.KEYWORD) {
                String name = tokens.text(i);
                if (name.startsWith("`") && name.endsWith("`") && name.length() > 1) {
                    name = name.substring(1, name.length() - 1);
                }
                TableRule rule = topology.tables().get(name.toLowerCase(Locale.ROOT));
                if (rule instanceof TableRule.Sharded || rule instanceof TableRule.Reference) {
                    return name;
                }
            }
        }
        return null;
    }

    /** The server's wording for a syntax error near token {@code at}. */
    static String syntaxErrorMessage(TokenBuffer tokens, int at) {
        String near = at < tokens.size() ? tokens.text(at, tokens.size() - 1) : "";
        if (near.length() > 80) {
            near = near.substring(0, 80);
        }
        return "You have an error in your SQL syntax; check the manual that corresponds to your server version for"
                + " the right syntax to use near '" + near + "' at line 1";
    }

    private static Plan unparsedRoute(int shard) {
        return new Plan.Route(StatementKind.OTHER, new Target.Shard(shard), new SqlTemplate.Original(), null, true,
                false, false, Pin.NONE, false);
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

    private static boolean isMultiStatement(TokenBuffer tokens) {
        for (int i = 0; i < tokens.size() - 1; i++) {
            if (tokens.type(i) == TokenType.SEMICOLON && tokens.type(i + 1) != TokenType.SEMICOLON
                    && tokens.type(i + 1) != TokenType.EOF) {
                return true;
            }
        }
        return false;
    }

    /**
     * Several statements in one COM_QUERY: each is planned; the text can go as it is only when
     * they all go to the same fixed shard and none changes the session.
     */
    private Plan multiStatement(TokenBuffer tokens, Generation gen) {
        Integer common = null;
        int start = 0;
        int n = tokens.size();
        for (int i = 0; i <= n; i++) {
            boolean end = i == n || tokens.type(i) == TokenType.SEMICOLON || tokens.type(i) == TokenType.EOF;
            if (!end) {
                continue;
            }
            if (i > start) {
                int from = tokens.start(start);
                int to = tokens.end(i - 1);
                Plan p = analyze(tokens.source(), from, to - from, SqlMode.DEFAULT, new Analysis(), gen).plan();
                if (!(p instanceof Plan.Route r) || r.pin() != Pin.NONE) {
                    return refuseMulti();
                }
                if (r.target() instanceof Target.Shard s) {
                    if (common != null && common != s.shard()) {
                        return refuseMulti();
                    }
                    common = s.shard();
                } else if (!(r.target() instanceof Target.AnyShard)) {
                    return refuseMulti();
                }
            }
            if (i < n && tokens.type(i) == TokenType.EOF) {
                break;
            }
            start = i + 1;
        }
        if (common == null) {
            return new Plan.Route(StatementKind.OTHER, new Target.AnyShard(), new SqlTemplate.Original(), null, false,
                    false, false, Pin.NONE, false);
        }
        return unparsedRoute(common);
    }

    private static Plan refuseMulti() {
        return new Plan.Refuse(StatementKind.OTHER, PlanningException.NOT_SUPPORTED, PlanningException.NOT_SUPPORTED_STATE,
                "several statements in one query are only supported when they all run on one fixed shard and change no"
                        + " session state: send them one at a time");
    }
}
