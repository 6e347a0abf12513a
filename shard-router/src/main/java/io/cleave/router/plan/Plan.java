package io.cleave.router.plan;

import io.cleave.router.sql.ast.StatementKind;

import java.util.List;

/**
 * What to do with one statement, decided once per statement shape (digest) and resolved with each
 * execution's values. Data, not behaviour: the proxy's executor interprets it.
 */
public sealed interface Plan permits Plan.Route, Plan.InsertSplit, Plan.Session, Plan.Local, Plan.Refuse {

    StatementKind kind();

    /**
     * Send the statement to the target's shards. On one shard the client's own text goes (or
     * {@code sql} when it had to be rewritten even there); on several, {@code multi} decides (null
     * when the target can only ever be one shard).
     *
     * @param write          changes data (decides transaction handling and broadcasting)
     * @param lockingRead    SELECT ... FOR UPDATE / LOCK IN SHARE MODE
     * @param usesLastInsertId the statement calls LAST_INSERT_ID(): the shard must know the session's value
     * @param pin            connection-bound state the statement creates or releases
     * @param previousConnection the statement reads what the session's previous statement left on its
     *                       connection (SHOW WARNINGS, FOUND_ROWS()): it must run there
     */
    record Route(StatementKind kind, Target target, SqlTemplate sql, MultiShard multi, boolean write,
                 boolean lockingRead, boolean usesLastInsertId, Pin pin, boolean previousConnection) implements Plan {
    }

    /**
     * A multi-row INSERT/REPLACE into a sharded table: each row goes to its key's shard. The text
     * for a shard is {@code head}, its rows joined by commas, then {@code tail}. {@code schema} is
     * null when the statement names the table without one (the session's applies).
     *
     * @param missingKeyColumn when the rows leave out the sharding key (an AUTO_INCREMENT column),
     *                         its name: the proxy draws ids from a sequence, adds the column after
     *                         token {@code columnListEnd - 1} and each row's value before its
     *                         closing parenthesis
     * @param columns          the column list as written (an AUTO_INCREMENT column left out of it
     *                         gets ids from the proxy's sequence too)
     */
    record InsertSplit(StatementKind kind, String schema, String table, String keyspace, SqlTemplate.Tokens head,
                       List<InsertRow> rows, SqlTemplate.Tokens tail, String missingKeyColumn, int columnListEnd,
                       List<String> columns) implements Plan {
        public InsertSplit {
            rows = List.copyOf(rows);
            columns = List.copyOf(columns);
        }
    }

    /** One VALUES row: its tokens (parentheses included) and its key (null when the key column is left out). */
    record InsertRow(int first, int end, KeyValue key) {
    }

    /** A session statement (SET, USE, transaction control). */
    record Session(StatementKind kind, SessionAction action) implements Plan {
    }

    /**
     * Answered by the proxy. The result column is named {@code alias}, or when null as the client
     * wrote the expression (tokens {@code [nameFirst, nameEnd)}); for EXPLAIN CLEAVE, those tokens
     * are the statement explained.
     */
    record Local(StatementKind kind, LocalQuery query, String alias, int nameFirst, int nameEnd) implements Plan {
    }

    /** Refused with an error, never answered wrongly. */
    record Refuse(StatementKind kind, int code, String sqlState, String message) implements Plan {
    }
}
