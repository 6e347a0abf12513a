package io.cleave.proxy.cutover;

import io.cleave.proxy.rewrite.BlockConditions;
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
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.Update;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.sql.parse.SqlSyntaxException;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * Keeps a move's {@link Ghost ghost} rows out of statements that run on several shards: the
 * target's copy before the cutover, the source's old rows after it until cleanup. On a shard that
 * holds ghosts, the statement's WHERE gains a condition that leaves out the ghost keys of every
 * table of that keyspace it reads or writes. Keyed statements never need it: they name their keys,
 * and those go to the shard that owns them.
 *
 * <p>Only statements over several shards while a move runs pay for this (the statement is parsed
 * again to find where the condition goes). Derived tables are filtered inside, each SELECT block
 * for the tables it reads; a shape it cannot filter is refused rather than answered with rows
 * counted twice.
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
        BlockConditions filter = filter(here, topology);
        boolean filterable;
        if (statement instanceof Query q) {
            filterable = filter.query(q);
        } else if (statement instanceof Update u) {
            List<Assignment> set = u.assignments();
            filterable = filter.block(u.tables(), u.where(), set.get(set.size() - 1).span());
        } else if (statement instanceof Delete d) {
            filterable = filter.block(d.from(), d.where(), d.from().isEmpty() ? null : d.from().get(d.from().size() - 1).span());
        } else {
            return SqlRenderer.render(template, analysis, values);
        }
        if (!filterable) {
            return null;
        }
        if (filter.inserts().isEmpty()) {
            return SqlRenderer.render(template, analysis, values);
        }
        SqlTemplate filtered = BlockConditions.insert(template, analysis.tokens().size(), filter.inserts());
        return filtered == null ? null : SqlRenderer.render(filtered, analysis, values);
    }

    /** The condition leaving a sharded table's ghost keys out, for every table of a keyspace with ghosts here. */
    private static BlockConditions filter(List<Ghost> ghosts, Topology topology) {
        return new BlockConditions((t, out) -> {
            if (!(topology.ruleFor(t.name().name()) instanceof TableRule.Sharded sharded)) {
                return true;
            }
            String column = BlockConditions.quote(t.exposedName()) + "." + BlockConditions.quote(sharded.column());
            for (Ghost g : ghosts) {
                if (g.keyspace().equals(sharded.keyspace())) {
                    out.add(notGhost(column, g, topology.keyspace(g.keyspace()).function().bucketCount()));
                }
            }
            return true;
        });
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
}
