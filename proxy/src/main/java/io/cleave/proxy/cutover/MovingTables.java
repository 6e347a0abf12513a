package io.cleave.proxy.cutover;

import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.Plan;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.TableName;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.sql.parse.SqlSyntaxException;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.List;

/**
 * Refuses DDL on a table whose rows a move is copying: a changed structure on one side would
 * break the copy, so it waits until the move ends. A move adding shards refuses every DDL (the
 * new shards would miss it). Costs nothing unless a move runs.
 */
public final class MovingTables {

    private MovingTables() {
    }

    /** The refusal for {@code plan}, or null when it may run. */
    public static String ddlRefusal(Plan plan, Analysis analysis, ShardMap map, Topology topology) {
        if (map.ghosts().isEmpty() && map.movingTables().isEmpty() || !plan.kind().isDdl()) {
            return null;
        }
        Long everything = map.movingTables().get(ShardMap.EVERY_TABLE);
        if (everything != null) {
            return "move " + everything + " is adding shards: the structure of tables cannot change until it is done"
                    + " (the new shards would miss the change); run the DDL after it";
        }
        Statement statement;
        try {
            statement = new SqlParser().parse(analysis.tokens(), analysis.digest());
        } catch (SqlSyntaxException e) {
            return null;
        }
        for (TableName table : tables(statement)) {
            Long copying = map.moveCopying(table.name());
            if (copying != null) {
                return table.name() + " is being moved (move " + copying + "): its structure cannot change until the"
                        + " move ends; run the DDL after it (see 'cleave moves')";
            }
        }
        if (map.ghosts().isEmpty()) {
            return null;
        }
        for (TableName table : tables(statement)) {
            if (topology.ruleFor(table.name()) instanceof TableRule.Sharded s) {
                for (Ghost g : map.ghosts()) {
                    if (g.keyspace().equals(s.keyspace())) {
                        return table.name() + " is being moved (move " + g.moveId() + ", keys " + g.keys() + " of keyspace "
                                + g.keyspace() + "): its structure cannot change until the move ends; run the DDL after"
                                + " it, or cancel it with 'cleave move --cancel " + g.moveId() + "'";
                    }
                }
            }
        }
        return null;
    }

    private static List<TableName> tables(Statement s) {
        List<TableName> out = new ArrayList<>();
        if (s instanceof Ddl.AlterTable a) {
            out.add(a.table());
        } else if (s instanceof Ddl.DropTable d) {
            out.addAll(d.tables());
        } else if (s instanceof Ddl.TruncateTable t) {
            out.add(t.table());
        } else if (s instanceof Ddl.RenameTable r) {
            out.addAll(r.from());
        } else if (s instanceof Ddl.CreateIndex c) {
            out.add(c.table());
        } else if (s instanceof Ddl.DropIndex d) {
            out.add(d.table());
        } else if (s instanceof Ddl.CreateTable c) {
            out.add(c.table());
        }
        return out;
    }
}
