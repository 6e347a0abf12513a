package io.cleave.proxy.backend;

/** The role of one frame within a response. */
public enum FrameKind {
    OK,
    ERR,
    /** An EOF packet, or the 0xFE-headed OK that replaces it with DEPRECATE_EOF. */
    EOF,
    COLUMN_COUNT,
    COLUMN_DEFINITION,
    ROW,
    PREPARE_OK,
    PARAM_DEFINITION,
    /** COM_STATISTICS's string. */
    STRING,
    /** An authentication round of COM_CHANGE_USER (auth switch request or more data): the client must answer. */
    AUTH_ROUND,
    /** A later frame of a packet of 16 MB or more. */
    CONTINUATION,
    /** 0xFB: the server asks for a local file (never requested, since LOCAL_FILES is not offered). */
    LOCAL_INFILE
}
