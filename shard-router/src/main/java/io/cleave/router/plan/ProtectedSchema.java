package io.cleave.router.plan;

import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.lex.TokenBuffer;

/**
 * Cleave keeps its own state in a schema of every shard (commit decisions, sequences): no client
 * may read, change or drop it, whatever its privileges. A statement that names that schema
 * (qualifying a table, routine or grant level with it, or as the database of USE, CREATE, ALTER,
 * DROP DATABASE and SHOW ... FROM) is refused with 1044 before it reaches a shard. Accounts
 * without privileges on it are refused by the shards too; this keeps accounts with global
 * privileges out of it as far as the statement's own text shows.
 */
final class ProtectedSchema {

    static final String NAME = "cleave";

    private ProtectedSchema() {
    }

    /** The refusal for a statement that names the schema, or null. */
    static Plan refusal(TokenBuffer tokens) {
        if (SchemaMentions.first(tokens, NAME::equals, false) == null) {
            return null;
        }
        return new Plan.Refuse(StatementKind.OTHER, 1044, "42000", "Access denied to database '" + NAME
                + "': it holds Cleave's own state (commit decisions of cross-shard transactions, sequences),"
                + " which no client may read, change or drop");
    }
}
