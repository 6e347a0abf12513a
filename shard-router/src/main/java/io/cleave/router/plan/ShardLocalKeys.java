package io.cleave.router.plan;

import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import io.cleave.router.sql.lex.Keyword;
import io.cleave.router.sql.lex.TokenBuffer;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * PRIMARY and UNIQUE keys of a sharded table that leave out its sharding column: no shard can
 * enforce them alone. Declared with the table (CREATE TABLE), the proxy enforces them across
 * shards through lookup tables; added with CREATE UNIQUE INDEX, the proxy builds the lookup from
 * the rows while clients write. Added by ALTER TABLE, they are refused: the statement may change
 * other things too, which could not be undone when the rows break the key.
 */
final class ShardLocalKeys {

    private ShardLocalKeys() {
    }

    /** Why a structure change cannot keep a global unique key right, or null. */
    static String refusal(Ddl ddl, Topology topology, TokenBuffer tokens) {
        if (ddl instanceof Ddl.AlterTable at
                && topology.tables().get(at.table().name().toLowerCase(Locale.ROOT)) instanceof TableRule.Sharded s) {
            List<String> added = addedUniqueKey(tokens, at.body().first(), at.body().end(), s);
            if (added != null) {
                return "ALTER TABLE " + s.table() + " adds a unique key (" + String.join(", ", added) + ") that leaves out"
                        + " its sharding column " + s.column() + ": add such a key with CREATE UNIQUE INDEX, which"
                        + " builds its lookup across shards from the rows (or declare it with CREATE TABLE)";
            }
        }
        return null;
    }

    /** The columns of an {@code ADD [CONSTRAINT [c]] UNIQUE|PRIMARY KEY ... (cols)} in the tokens leaving out the sharding column, or null. */
    private static List<String> addedUniqueKey(TokenBuffer tokens, int first, int end, TableRule.Sharded s) {
        for (int i = first; i < end; i++) {
            if (!tokens.isKeyword(i, Keyword.ADD)) {
                continue;
            }
            int j = i + 1;
            if (j < end && tokens.isKeyword(j, Keyword.CONSTRAINT)) {
                j += j + 1 < end && !tokens.isKeyword(j + 1, Keyword.UNIQUE) && !tokens.isKeyword(j + 1, Keyword.PRIMARY) ? 2 : 1;
            }
            if (j >= end || !tokens.isKeyword(j, Keyword.UNIQUE) && !tokens.isKeyword(j, Keyword.PRIMARY)) {
                continue;
            }
            while (j < end && !tokens.text(j).equals("(")) {
                j++;
            }
            List<String> columns = new ArrayList<>();
            int depth = 0;
            for (int k = j; k < end; k++) {
                String t = tokens.text(k);
                if (t.equals("(")) {
                    depth++;
                } else if (t.equals(")")) {
                    if (--depth == 0) {
                        break;
                    }
                } else if (depth == 1 && !t.equals(",") && (k == j + 1 || tokens.text(k - 1).equals(","))) {
                    columns.add(t.replace("`", "").replace("\"", ""));
                }
            }
            if (!columns.isEmpty() && leavesOut(columns, s)) {
                return columns;
            }
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
