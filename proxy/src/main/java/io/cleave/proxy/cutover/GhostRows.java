package io.cleave.proxy.cutover;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.ParameterValues;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.sql.ast.Assignment;
import io.cleave.router.sql.ast.Delete;
import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Select;
import io.cleave.router.sql.ast.Span;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.TableRef;
import io.cleave.router.sql.ast.Update;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.sql.parse.SqlSyntaxException;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;

/**
 * Keeps a move's {@link Ghost ghost} rows out of statements that run on several shards: the
 * target's copy before the cutover, the source's old rows after it until cleanup. On a shard that
 * holds ghosts, the statement's WHERE gains a condition that leaves out the ghost keys of every
 * table of that keyspace it reads or writes. Keyed statements never need it: they name their keys,
 * and those go to the shard that owns them.
 *
 * <p>Only statements over several shards while a move runs pay for this (the statement is parsed
 * again to find where the condition goes); a shape it cannot filter is refused rather than answered
 * with rows counted twice.
 */
public final class GhostRows {

    /** SQL function on every shard: the hash bucket of an integer key, as {@link HashShardFunction} computes it. */
    public static final String BUCKET_FUNCTION = "cleave.bucket_of";

    private GhostRows() {
    }

    /** The statement's text for {@code shard}, filtered when ghosts sit there; null when it cannot be filtered. */
    public static byte[] render(SqlTemplate template, Analysis analysis, ParameterValues values, int shard,
                                ShardMap map, Topology topology) {
        List<Ghost> here = new ArrayList<>();
        for (Ghost g : map.ghosts()) {
            if (g.shard() == shard) {
                here.add(g);
            }
        }
        if (here.isEmpty()) {
            return SqlRenderer.render(template, analysis, values);
        }
        Statement statement;
        try {
            statement = new SqlParser().parse(analysis.tokens(), analysis.digest());
        } catch (SqlSyntaxException e) {
            return null;
        }
        List<TableRef> refs;
        Expr where;
        Span end;
        if (statement instanceof Select s) {
            refs = s.from();
            where = s.where();
            end = refs.isEmpty() ? null : refs.get(refs.size() - 1).span();
        } else if (statement instanceof Update u) {
            refs = u.tables();
            where = u.where();
            List<Assignment> set = u.assignments();
            end = set.get(set.size() - 1).span();
        } else if (statement instanceof Delete d) {
            refs = d.from();
            where = d.where();
            end = refs.isEmpty() ? null : refs.get(refs.size() - 1).span();
        } else {
            return SqlRenderer.render(template, analysis, values);
        }
        List<String> conditions = new ArrayList<>();
        for (TableRef ref : refs) {
            if (!conditions(ref, here, map, topology, conditions)) {
                return null;
            }
        }
        if (conditions.isEmpty()) {
            return SqlRenderer.render(template, analysis, values);
        }
        String condition = String.join(" AND ", conditions);
        TreeMap<Integer, String> inserts = new TreeMap<>();
        if (where != null) {
            inserts.put(where.span().first(), " (");
            inserts.put(where.span().end(), ") AND " + condition + " ");
        } else if (end != null) {
            inserts.put(end.end(), " WHERE " + condition + " ");
        } else {
            return null;
        }
        SqlTemplate filtered = insert(template, analysis.tokens().size(), inserts);
        return filtered == null ? null : SqlRenderer.render(filtered, analysis, values);
    }

    /** Adds the conditions for the tables of {@code ref}; false when a ghost keyspace hides in a derived table. */
    private static boolean conditions(TableRef ref, List<Ghost> ghosts, ShardMap map, Topology topology, List<String> out) {
        if (ref instanceof TableRef.Join j) {
            return conditions(j.left(), ghosts, map, topology, out) && conditions(j.right(), ghosts, map, topology, out);
        }
        if (ref instanceof TableRef.Derived) {
            return false;
        }
        TableRef.Table t = (TableRef.Table) ref;
        if (!(topology.ruleFor(t.name().name()) instanceof TableRule.Sharded sharded)) {
            return true;
        }
        String column = quote(t.exposedName()) + "." + quote(sharded.column());
        for (Ghost g : ghosts) {
            if (g.keyspace().equals(sharded.keyspace())) {
                out.add(notGhost(column, g, topology.keyspace(g.keyspace()).function().bucketCount()));
            }
        }
        return true;
    }

    /** True for rows whose key is not one of the ghost's (NULL keys are never ghosts). */
    public static String notGhost(String column, Ghost g, int buckets) {
        if (g.keys() instanceof KeySet.Buckets b) {
            return "(" + column + " IS NULL OR " + BUCKET_FUNCTION + "(" + column + ", " + buckets + ") NOT BETWEEN "
                    + b.from() + " AND " + b.to() + ")";
        }
        KeySet.Keys k = (KeySet.Keys) g.keys();
        if (k.to() == Long.MAX_VALUE) {
            return "(" + column + " IS NULL OR " + column + " < " + k.from() + ")";
        }
        return "(" + column + " IS NULL OR " + column + " NOT BETWEEN " + k.from() + " AND " + k.to() + ")";
    }

    /**
     * The template with text inserted before the given token positions; null when a position falls
     * in text the template itself rewrote.
     */
    static SqlTemplate insert(SqlTemplate template, int tokenCount, TreeMap<Integer, String> inserts) {
        List<SqlTemplate.Piece> pieces = template instanceof SqlTemplate.Pieces p ? p.pieces()
                : List.of(new SqlTemplate.Tokens(0, tokenCount));
        List<SqlTemplate.Piece> out = new ArrayList<>();
        TreeMap<Integer, String> left = new TreeMap<>(inserts);
        for (SqlTemplate.Piece piece : pieces) {
            if (!(piece instanceof SqlTemplate.Tokens t)) {
                out.add(piece);
                continue;
            }
            int from = t.first();
            for (Integer at : new ArrayList<>(left.subMap(t.first(), true, t.end(), true).keySet())) {
                if (at > from) {
                    out.add(new SqlTemplate.Tokens(from, at));
                }
                out.add(new SqlTemplate.Text(left.remove(at)));
                from = at;
            }
            if (t.end() > from) {
                out.add(new SqlTemplate.Tokens(from, t.end()));
            }
        }
        return left.isEmpty() ? new SqlTemplate.Pieces(out) : null;
    }

    private static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }
}
