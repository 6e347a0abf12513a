package io.cleave.router.plan;

/** Queries about the session that the proxy answers itself, since a shard connection would not know. */
public enum LocalQuery {
    /** SELECT LAST_INSERT_ID(): the id from this session's last insert, whichever shard ran it. */
    LAST_INSERT_ID,
    /** SELECT ROW_COUNT(): what the session's previous statement counted, whichever shards ran it. */
    ROW_COUNT,
    /** SELECT FOUND_ROWS(): the rows the session's last result set had (or would have had without LIMIT). */
    FOUND_ROWS,
    /**
     * A statement that calls ROW_COUNT() or FOUND_ROWS() inside other expressions: the proxy puts
     * the session's values in their place and plans the statement again (a shard connection would
     * answer with what another client's statement left on it).
     */
    SESSION_VALUES,
    /** SELECT CONNECTION_ID(): the proxy's id for the session. */
    CONNECTION_ID,
    /** SELECT DATABASE() / SCHEMA(). */
    DATABASE,
    /** SELECT USER() / SESSION_USER() / SYSTEM_USER(): the client's user and host, not the shards' account. */
    USER,
    /** SELECT CURRENT_USER(): the proxy account the client logged in as. */
    CURRENT_USER,
    /** EXPLAIN CLEAVE statement: the statement's plan and the shards it reaches, from the proxy's own router. */
    EXPLAIN_CLEAVE,
    /**
     * CREATE/ALTER/DROP/RENAME USER, CREATE/DROP ROLE, GRANT, REVOKE, SET PASSWORD, SET DEFAULT
     * ROLE: every shard holds the accounts, so the proxy applies it to all of them, all or none.
     */
    ACCOUNT_STATEMENT,
    /** SET ROLE: the session's active role, which every backend connection of the session takes on. */
    SET_ROLE,
    /** KILL [CONNECTION | QUERY] id: of the proxy's own client connections, as a server allows it. */
    KILL,
    /**
     * A read of the grant tables, information_schema's privilege views, PROCESSLIST or SCHEMATA, or
     * SHOW DATABASES: the proxy runs it with conditions that leave Cleave's own rows out (the shard
     * account, its connections, Cleave's schema).
     */
    FILTERED_READ
}
