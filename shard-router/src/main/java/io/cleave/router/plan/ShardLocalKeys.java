package io.cleave.router.plan;

import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PRIMARY and UNIQUE keys of a sharded table that leave out its sharding column: each shard
 * enforces them for its own rows only, so the same value can be stored twice under keys on
 * different shards, and INSERT ... ON DUPLICATE KEY UPDATE, REPLACE and INSERT IGNORE see only the
 * row's own shard. Creating such a key is answered with a warning that says so.
 */
final class ShardLocalKeys {

    private ShardLocalKeys() {
    }

    /** The warnings a CREATE TABLE or CREATE UNIQUE INDEX earns; empty for anything else. */
    static List<String> warnings(Ddl ddl, Topology topology) {
        List<String> out = new ArrayList<>();
        if (ddl instanceof Ddl.CreateTable ct && !ct.temporary()
                && topology.tables().get(ct.table().name().toLowerCase(Locale.ROOT)) instanceof TableRule.Sharded s) {
            for (Ddl.ColumnDef c : ct.columns()) {
                if ((c.primaryKey() || c.unique()) && !c.name().value().equalsIgnoreCase(s.column())) {
                    out.add(warning(c.primaryKey() ? "PRIMARY KEY" : "UNIQUE key", c.name().value(), s));
                }
            }
            for (Ddl.KeyDef k : ct.keys()) {
                if ((k.type() == Ddl.KeyType.PRIMARY || k.type() == Ddl.KeyType.UNIQUE) && leavesOut(k.columns(), s)) {
                    out.add(warning(k.type() == Ddl.KeyType.PRIMARY ? "PRIMARY KEY"
                            : "UNIQUE key" + (k.name() != null ? " " + k.name() : ""), String.join(", ", k.columns()), s));
                }
            }
        } else if (ddl instanceof Ddl.CreateIndex ci && ci.type() == Ddl.KeyType.UNIQUE
                && topology.tables().get(ci.table().name().toLowerCase(Locale.ROOT)) instanceof TableRule.Sharded s
                && leavesOut(ci.columns(), s)) {
            out.add(warning("UNIQUE key " + ci.name().value(), String.join(", ", ci.columns()), s));
        }
        return out;
    }

    private static boolean leavesOut(List<String> columns, TableRule.Sharded s) {
        for (String c : columns) {
            if (c.equalsIgnoreCase(s.column())) {
                return false;
            }
        }
        return true;
    }

    private static String warning(String key, String columns, TableRule.Sharded s) {
        return "The " + key + " (" + columns + ") of " + s.table() + " leaves out its sharding column " + s.column()
                + ": each shard enforces it only for its own rows, so the same value can exist under " + s.column()
                + " values on different shards, and ON DUPLICATE KEY UPDATE, REPLACE and INSERT IGNORE only see the"
                + " row's own shard (include " + s.column() + " in the key to have it enforced everywhere)";
    }
}
