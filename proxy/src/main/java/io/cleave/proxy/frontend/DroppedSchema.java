package io.cleave.proxy.frontend;

import io.cleave.router.sql.ast.Ddl;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.lex.SqlMode;
import io.cleave.router.sql.parse.SqlParser;

/**
 * Which schema a DROP DATABASE named. MariaDB sets SERVER_STATUS_DB_DROPPED after any DROP
 * DATABASE, not only one of the connection's current schema, so the flag alone cannot say whether
 * the session lost its schema: the name in the statement does. Parsed only when the flag is set.
 */
final class DroppedSchema {

    private DroppedSchema() {
    }

    /** The schema {@code sql} drops, or null when it is not a DROP DATABASE (or does not parse). */
    static String of(byte[] sql, SqlMode mode) {
        try {
            Statement statement = SqlParser.parse(sql, mode);
            if (statement instanceof Ddl.Database db && db.kind() == StatementKind.DROP_DATABASE) {
                return db.name().value();
            }
        } catch (RuntimeException e) {
            // Not a statement this parser knows: it dropped nothing the proxy can name.
        }
        return null;
    }
}
