package io.cleave.router.plan;

import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.lex.Identifiers;
import io.cleave.router.sql.lex.LexError;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one place every plan passes before it is cached or run. It fails closed: what it cannot
 * prove right is refused with 1235, naming the table, its key and the reason.
 * <ul>
 * <li>A routed statement that may reach several shards must carry the {@link ScatterRule}s that
 *     make its merge or fan-out exact, or a refusal.</li>
 * <li>A statement the parser cannot read goes to the default shard only when none of its names
 *     (unquoted as the server would, in either quoting style, and in string literals that may be
 *     run as SQL) is a sharded or reference table, or an unsharded table homed elsewhere.</li>
 * <li>Views, functions, procedures, triggers and events are created on every shard and run on
 *     one: one over such tables would see one shard's rows, so creating it is refused.</li>
 * <li>Text the lexer cannot split exactly (bytes of a character set that is not ASCII-safe) is
 *     refused.</li>
 * </ul>
 */
final class PlanGate {

    private final Topology topology;

    PlanGate(Topology topology) {
        this.topology = topology;
    }

    /** The plan, or the refusal it becomes. */
    Plan admit(Plan plan) {
        if (!(plan instanceof Plan.Route r) || topology.shardCount() == 1) {
            return plan;
        }
        boolean severalShards = r.target() instanceof Target.AllShards
                || r.target() instanceof Target.Keyed k && k.classes().size() == 1 && k.homeShards().isEmpty();
        if (!severalShards) {
            return plan;
        }
        String unproven = r.several() == null ? "it has no way to combine several shards' answers"
                : r.several() instanceof Plan.Merge m && m.rules().isEmpty() ? "no rule proves its merge exact"
                : r.several() instanceof Plan.FanOutWrite w && w.rules().isEmpty() ? "no rule proves its fan-out exact"
                : r.several() instanceof Plan.Evaluate e && (e.rules().isEmpty() || e.tables().isEmpty())
                ? "no rule proves its evaluation exact"
                : null;
        if (unproven == null) {
            return plan;
        }
        Plan.Refuse refused = Plan.Refuse.notSupported(r.kind(), "this statement over " + r.target()
                + " can reach several shards and " + unproven + ": not supported across shards");
        return new Plan.Route(r.kind(), r.target(), r.access(), r.effects(), refused, r.probe());
    }

    /** A lexer error that makes the statement unreadable for routing (not the server's to judge), or null. */
    static Plan lexRefusal(TokenBuffer tokens) {
        if (tokens.hasError() && tokens.error(tokens.size() - 1) == LexError.UNSAFE_CHARSET) {
            return new Plan.Refuse(StatementKind.OTHER, PlanningException.NOT_SUPPORTED,
                    PlanningException.NOT_SUPPORTED_STATE, "the connection's character set is not ASCII-safe (as gbk,"
                    + " sjis, big5, cp932 and gb18030 are not: a multibyte character can hold the bytes of a quote or a"
                    + " backslash), so the proxy cannot split a statement with non-ASCII bytes exactly and reads only"
                    + " ASCII statements: send the values as prepared-statement parameters, or use utf8mb4");
        }
        return null;
    }

    /**
     * Why a statement the parser cannot read must not go to the default shard, or null when it
     * may. {@code cause} says where the parser stopped (placeholders shown as '?').
     */
    String unparsedRefusal(TokenBuffer tokens, String cause) {
        for (int i = 0; i < tokens.size(); i++) {
            TokenType t = tokens.type(i);
            String name = null;
            if (t == TokenType.IDENTIFIER || t == TokenType.KEYWORD) {
                name = tokens.text(i);
            } else if (t == TokenType.QUOTED_IDENTIFIER) {
                name = Identifiers.unquote(tokens.text(i));
            }
            String why = name == null ? null : elsewhere(name);
            if (why != null) {
                return refusal(why, cause);
            }
            if (t == TokenType.STRING) {
                // Text that may run as SQL (PREPARE ... FROM '...', EXECUTE IMMEDIATE '...').
                Matcher words = WORD.matcher(tokens.text(i));
                while (words.find()) {
                    why = elsewhere(words.group());
                    if (why != null) {
                        return refusal(why, cause);
                    }
                }
            }
        }
        return null;
    }

    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9_$\\x{80}-\\x{FFFF}]+");

    private static String refusal(String why, String cause) {
        return "the proxy cannot read this statement (" + cause + ") and it names " + why + ", whose rows the default"
                + " shard alone does not hold: not supported across shards";
    }

    /**
     * Why a name denotes rows the default shard does not hold alone: a sharded or reference table,
     * or an unsharded table homed on another shard; null otherwise.
     */
    String elsewhere(String name) {
        TableRule rule = topology.tables().get(name.toLowerCase(Locale.ROOT));
        if (rule instanceof TableRule.Sharded s) {
            return s.table() + " (sharded by " + s.column() + ")";
        }
        if (rule instanceof TableRule.Reference ref) {
            return ref.table() + " (a reference table, copied to every shard)";
        }
        if (rule instanceof TableRule.Unsharded u && u.homeShard() != topology.defaultShard()) {
            return u.table() + " (unsharded, on shard " + u.homeShard() + ")";
        }
        return null;
    }

    /**
     * Why a view, function, procedure, trigger or event must not be created, or null. A view may
     * read reference tables (every shard has them) and the default shard's unsharded tables; a
     * routine's body cannot be told read from write, so it may name none of those.
     */
    String objectRefusal(Ddl.ObjectDdl ddl, PlanContext ctx) {
        String kind = ddl.kind().name().replace("CREATE_", "").replace("ALTER_", "").toLowerCase(Locale.ROOT);
        String object = kind + " " + ddl.names().get(0).name();
        if (ddl.query() != null) {
            KeyAnalyzer analyzer = new KeyAnalyzer(topology);
            analyzer.query(ddl.query());
            for (QueryParts.Binding b : analyzer.bindings()) {
                if (b.rule instanceof TableRule.Sharded || b.rule instanceof TableRule.Unsharded u
                        && u.homeShard() != topology.defaultShard()) {
                    return "the " + object + " reads " + elsewhere(b.table) + ": a view is created on every shard and"
                            + " read on one, where it would see that shard's rows only; not supported across shards"
                            + " (query the table itself)";
                }
            }
            return null;
        }
        int bodyStart = ddl.names().get(0).span().end();
        if (!ddl.tables().isEmpty()) {
            // A trigger's own table (ON t) is where it fires: each shard fires it for its own rows.
            bodyStart = Math.max(bodyStart, ddl.tables().get(0).span().end());
        }
        TokenBuffer tokens = ctx.tokens;
        for (int i = bodyStart; i < ddl.span().end(); i++) {
            TokenType t = tokens.type(i);
            String why = null;
            if (t == TokenType.IDENTIFIER || t == TokenType.KEYWORD) {
                why = elsewhere(tokens.text(i));
            } else if (t == TokenType.QUOTED_IDENTIFIER) {
                why = elsewhere(Identifiers.unquote(tokens.text(i)));
            } else if (t == TokenType.STRING) {
                Matcher words = WORD.matcher(tokens.text(i));
                while (why == null && words.find()) {
                    why = elsewhere(words.group());
                }
            }
            if (why != null) {
                return "the " + object + " names " + why + ": it is created on every shard but runs on one, where it"
                        + " would read or change that shard's rows only; not supported across shards";
            }
        }
        return null;
    }
}
