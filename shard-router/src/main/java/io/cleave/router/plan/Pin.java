package io.cleave.router.plan;

/**
 * Session state that lives in one server connection, so the session keeps that connection until
 * the state is gone (multiplexing stops for it meanwhile).
 */
public enum Pin {
    NONE,
    /** CREATE TEMPORARY TABLE: pinned until the session drops its temporary tables (or ends). */
    TEMPORARY_TABLE,
    /** DROP TEMPORARY TABLE. */
    DROP_TEMPORARY_TABLE,
    /** LOCK TABLES: pinned until UNLOCK TABLES. */
    LOCK_TABLES,
    UNLOCK_TABLES,
    /** GET_LOCK(): named locks belong to the connection. */
    NAMED_LOCK,
    /** RELEASE_LOCK() / RELEASE_ALL_LOCKS(). */
    RELEASE_NAMED_LOCK,
    /** SQL PREPARE: the statement lives in the connection until DEALLOCATE PREPARE. */
    SQL_PREPARE,
    SQL_DEALLOCATE,
    /** SQL EXECUTE of a statement prepared earlier. */
    SQL_EXECUTE,
    /**
     * NEXTVAL, SETVAL, LASTVAL of a sequence: LASTVAL (PREVIOUS VALUE FOR) reads what the session's
     * connection drew last, so the session keeps its default-shard connection from then on.
     */
    SEQUENCE
}
