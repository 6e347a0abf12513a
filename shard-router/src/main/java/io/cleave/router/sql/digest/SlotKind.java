package io.cleave.router.sql.digest;

/** Where a slot's value comes from. */
public enum SlotKind {
    /** A literal in the statement text; its value is decoded from the original bytes. */
    LITERAL,
    /** A client {@code ?} placeholder; its value arrives with COM_STMT_EXECUTE. */
    PLACEHOLDER
}
