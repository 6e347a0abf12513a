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
 */
public final class Router {

    private final Topology topology;
    private final Planner planner;
    private final SqlParser parser = new SqlParser();
    private final int capacity;
    @SuppressWarnings("unchecked")
    private final ConcurrentHashMap<DigestKey, Plan>[] caches = new ConcurrentHashMap[4];

    public Router(Topology topology) {
        this(topology, 20_000);
    }

    /** {@code capacity}: plans kept per SQL mode; 0 keeps none (every statement is parsed and planned). */
    public Router(Topology topology, int capacity) {
        this.topology = topology;
        this.planner = new Planner(topology);
        this.capacity = capacity;
        for (int i = 0; i < caches.length; i++) {
            caches[i] = new ConcurrentHashMap<>();
        }
    }

    public Topology topology() {
        return topology;
    }

    static int modeIndex(SqlMode mode) {
        return (mode.ansiQuotes() ? 2 : 0) + (mode.noBackslashEscapes() ? 1 : 0);
    }

    /** Analyzes {@code sql[offset, offset + length)} into {@code into}; returns it. */
    public Analysis analyze(byte[] sql, int offset, int length, SqlMode mode, Analysis into) {
        into.lexer(mode).lex(sql, offset, length, into.tokens);
        into.digest.compute(into.tokens);
        into.slots.bind(into.tokens, into.digest);
        ConcurrentHashMap<DigestKey, Plan> cache = caches[modeIndex(mode)];
        Plan plan = cache.get(into.digest.lookupKey());
        into.cached = plan != null;
        if (plan == null) {
            plan = planFresh(into);
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
        for (ConcurrentHashMap<DigestKey, Plan> c : caches) {
            n += c.size();
        }
        return n;
    }

    private Plan planFresh(Analysis a) {
        TokenBuffer tokens = a.tokens;
        if (isExplainCleave(tokens)) {
            return new Plan.Local(StatementKind.EXPLAIN, LocalQuery.EXPLAIN_CLEAVE, null, 2, tokens.size());
        }
        int second = secondStatement(tokens);
        if (second >= 0) {
            return new Plan.MultiStatement(second, located(multiStatement(tokens), a));
        }
        Plan plan;
        try {
            Statement statement = parser.parse(tokens, a.digest);
            plan = planner.plan(statement, tokens, a.digest);
        } catch (SqlSyntaxException e) {
            plan = unparsed(tokens, e);
        }
        return located(plan, a);
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
     * A statement the parser does not understand: with one shard, or when it names no sharded or
     * reference table, the server can judge it (default shard); otherwise it is refused, since
     * its rows could be anywhere.
     */
    private Plan unparsed(TokenBuffer tokens, SqlSyntaxException e) {
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

    /** The first token of a second statement in the text (after a semicolon), or -1. */
    private static int secondStatement(TokenBuffer tokens) {
        for (int i = 0; i < tokens.size() - 1; i++) {
            if (tokens.type(i) == TokenType.SEMICOLON && tokens.type(i + 1) != TokenType.SEMICOLON
                    && tokens.type(i + 1) != TokenType.EOF) {
                return i + 1;
            }
        }
        return -1;
    }

    /**
     * Several statements in one COM_QUERY: each is planned; the text can go as it is only when
     * they all go to the same fixed shard and none changes the session.
     */
    private Plan multiStatement(TokenBuffer tokens) {
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
                Plan p = analyze(tokens.source(), from, to - from, SqlMode.DEFAULT, new Analysis()).plan();
                if (!(p instanceof Plan.Route r) || r.effects().pin().pin() != Pin.NONE) {
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
            return Plan.Route.of(StatementKind.OTHER, new Target.AnyShard(), Plan.Access.READ, null);
        }
        return unparsedRoute(common);
    }

    private static Plan refuseMulti() {
        return Plan.Refuse.notSupported(StatementKind.OTHER,
                "several statements in one query are only supported when they all run on one fixed shard and change no"
                        + " session state: send them one at a time");
    }
}
