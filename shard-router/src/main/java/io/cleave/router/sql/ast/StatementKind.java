package io.cleave.router.sql.ast;

/** What a statement is. Generic admin statements keep their leading words in {@link UtilityStatement.Other}. */
public enum StatementKind {
    SELECT, INSERT, REPLACE, UPDATE, DELETE,
    SET, SET_TRANSACTION, SET_PASSWORD, SET_ROLE,
    BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE_SAVEPOINT, XA,
    USE, SHOW, DESCRIBE, EXPLAIN,
    CREATE_TABLE, ALTER_TABLE, DROP_TABLE, TRUNCATE_TABLE, RENAME_TABLE, CREATE_INDEX, DROP_INDEX,
    CREATE_DATABASE, ALTER_DATABASE, DROP_DATABASE, CREATE_VIEW, ALTER_VIEW, DROP_VIEW,
    CREATE_TRIGGER, DROP_TRIGGER, CREATE_PROCEDURE, DROP_PROCEDURE, CREATE_FUNCTION, DROP_FUNCTION,
    CREATE_EVENT, ALTER_EVENT, DROP_EVENT, TABLE_MAINTENANCE,
    LOCK_TABLES, UNLOCK_TABLES, PREPARE, EXECUTE, DEALLOCATE_PREPARE, CALL, DO, LOAD_DATA, HANDLER,
    FLUSH, KILL, GRANT, REVOKE, USER_ADMIN, INSTALL, UNINSTALL, OTHER;

    /** True for statements that change table structure or schemas (broadcast to every shard). */
    public boolean isDdl() {
        return ordinal() >= CREATE_TABLE.ordinal() && ordinal() <= DROP_EVENT.ordinal();
    }
}
