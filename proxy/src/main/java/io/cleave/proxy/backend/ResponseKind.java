package io.cleave.proxy.backend;

/** What shape of response a command gets, which decides how its frames are told apart. */
public enum ResponseKind {
    /** COM_QUERY and COM_STMT_EXECUTE: OK, ERR, or result set(s) (text or binary rows alike). */
    RESULT,
    /** COM_STMT_FETCH: rows then a terminator, or ERR. */
    FETCH,
    /** COM_STMT_PREPARE: PREPARE_OK + parameter and column definitions, or ERR. */
    PREPARE,
    /** COM_FIELD_LIST: column definitions then a terminator, or ERR. */
    FIELD_LIST,
    /** One packet: OK, EOF or ERR (COM_PING, COM_INIT_DB, COM_SET_OPTION, COM_RESET_CONNECTION, ...). */
    SIMPLE,
    /** COM_STATISTICS: one string packet. */
    STATISTICS,
    /**
     * COM_CHANGE_USER: authentication rounds (auth switch, more data) until OK or ERR. The sink
     * answers each round itself; the response ends with the OK or ERR.
     */
    CHANGE_USER
}
