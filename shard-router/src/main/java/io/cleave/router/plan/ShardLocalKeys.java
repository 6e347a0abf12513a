package io.cleave.router.plan;

import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import io.cleave.router.unique.GlobalKeyAlter;

import java.util.Locale;

/**
 * PRIMARY and UNIQUE keys of a sharded table that leave out its sharding column: no shard can
 * enforce them alone. Declared with the table (CREATE TABLE), the proxy enforces them across
 * shards through lookup tables; added with CREATE UNIQUE INDEX or ALTER TABLE ... ADD, the proxy
 * builds the lookup from the rows while clients write. An ALTER that adds one together with
 * changes that could not be undone should the rows break the key is refused ({@link GlobalKeyAlter}).
 */
final class ShardLocalKeys {

    private ShardLocalKeys() {
    }

    /** Why a structure change cannot keep a global unique key right, or null. */
    static String refusal(Ddl ddl, Topology topology, TokenBuffer tokens) {
        if (ddl instanceof Ddl.AlterTable at
                && topology.tables().get(at.table().name().toLowerCase(Locale.ROOT)) instanceof TableRule.Sharded s) {
            GlobalKeyAlter alter = GlobalKeyAlter.of(at, s.column(), tokens);
            return alter == null ? null : alter.refusal();
        }
        return null;
    }
}
