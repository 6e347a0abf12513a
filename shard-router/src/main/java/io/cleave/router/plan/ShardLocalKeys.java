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
 * shards through lookup tables; added to a table that may already hold rows (CREATE UNIQUE INDEX),
 * they are refused: the lookup would have to be built from the rows while clients write.
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
                        + " its sharding column " + s.column() + ": such a key is enforced across shards only when"
                        + " declared with the table (CREATE TABLE); building it for rows already stored is not supported yet";
            }
        }
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
