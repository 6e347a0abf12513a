package io.cleave.router.plan;

import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.List;
import java.util.Locale;

/**
 * PRIMARY and UNIQUE keys of a sharded table that leave out its sharding column: no shard can
 * enforce them alone. Declared with the table (CREATE TABLE), the proxy enforces them across
 * shards through lookup tables; added to a table that may already hold rows (CREATE UNIQUE INDEX),
 * they are refused: the lookup would have to be built from the rows while clients write.
 */
final class ShardLocalKeys {

    private ShardLocalKeys() {
    }

    /** Why a structure change cannot keep a global unique key right, or null. */
    static String refusal(Ddl ddl, Topology topology) {
        if (ddl instanceof Ddl.CreateIndex ci && ci.type() == Ddl.KeyType.UNIQUE
                && topology.tables().get(ci.table().name().toLowerCase(Locale.ROOT)) instanceof TableRule.Sharded s
                && leavesOut(ci.columns(), s)) {
            return "CREATE UNIQUE INDEX " + ci.name().value() + " (" + String.join(", ", ci.columns()) + ") on "
                    + s.table() + " leaves out its sharding column " + s.column() + ": such a key is enforced across"
                    + " shards only when declared with the table (CREATE TABLE); building it for rows already stored"
                    + " is not supported yet";
        }
        return null;
    }

    private static boolean leavesOut(List<String> columns, TableRule.Sharded s) {
        for (String c : columns) {
            if (c.equalsIgnoreCase(s.column())) {
                return false;
            }
        }
        return true;
    }
}
