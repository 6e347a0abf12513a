package io.cleave.proxy.protocol;

/**
 * The capability flags exchanged in the handshake, as a value. Call sites ask
 * {@code caps.deprecateEof()}, never test bit masks.
 */
public record Capabilities(long flags) {

    public static final long LONG_PASSWORD = 1L;
    public static final long FOUND_ROWS = 1L << 1;
    public static final long LONG_FLAG = 1L << 2;
    public static final long CONNECT_WITH_DB = 1L << 3;
    public static final long NO_SCHEMA = 1L << 4;
    public static final long COMPRESS = 1L << 5;
    public static final long ODBC = 1L << 6;
    public static final long LOCAL_FILES = 1L << 7;
    public static final long IGNORE_SPACE = 1L << 8;
    public static final long PROTOCOL_41 = 1L << 9;
    public static final long INTERACTIVE = 1L << 10;
    public static final long SSL = 1L << 11;
    public static final long IGNORE_SIGPIPE = 1L << 12;
    public static final long TRANSACTIONS = 1L << 13;
    public static final long SECURE_CONNECTION = 1L << 15;
    public static final long MULTI_STATEMENTS = 1L << 16;
    public static final long MULTI_RESULTS = 1L << 17;
    public static final long PS_MULTI_RESULTS = 1L << 18;
    public static final long PLUGIN_AUTH = 1L << 19;
    public static final long CONNECT_ATTRS = 1L << 20;
    public static final long PLUGIN_AUTH_LENENC_CLIENT_DATA = 1L << 21;
    public static final long CAN_HANDLE_EXPIRED_PASSWORDS = 1L << 22;
    public static final long SESSION_TRACK = 1L << 23;
    public static final long DEPRECATE_EOF = 1L << 24;
    public static final long OPTIONAL_RESULTSET_METADATA = 1L << 25;
    public static final long QUERY_ATTRIBUTES = 1L << 27;

    /**
     * What the proxy offers clients. Deliberately absent: COMPRESS, LOCAL_FILES (LOAD DATA LOCAL
     * is not relayed), QUERY_ATTRIBUTES and OPTIONAL_RESULTSET_METADATA (they change packet
     * layouts the relay would have to rewrite).
     */
    public static final Capabilities PROXY_SERVER = new Capabilities(LONG_PASSWORD | FOUND_ROWS | LONG_FLAG
            | CONNECT_WITH_DB | NO_SCHEMA | ODBC | IGNORE_SPACE | PROTOCOL_41 | INTERACTIVE | SSL | IGNORE_SIGPIPE
            | TRANSACTIONS | SECURE_CONNECTION | MULTI_STATEMENTS | MULTI_RESULTS | PS_MULTI_RESULTS | PLUGIN_AUTH
            | CONNECT_ATTRS | PLUGIN_AUTH_LENENC_CLIENT_DATA | CAN_HANDLE_EXPIRED_PASSWORDS | SESSION_TRACK
            | DEPRECATE_EOF);

    /**
     * Flags that change the format or meaning of what a server sends back. A backend connection
     * can only relay raw packets to a client whose flags agree on these, so backend pools are
     * keyed by them.
     */
    public static final long RESPONSE_SHAPING = DEPRECATE_EOF | FOUND_ROWS | IGNORE_SPACE | SESSION_TRACK;

    public boolean has(long flag) {
        return (flags & flag) != 0;
    }

    public Capabilities with(long flag) {
        return new Capabilities(flags | flag);
    }

    public Capabilities without(long flag) {
        return new Capabilities(flags & ~flag);
    }

    public Capabilities intersect(Capabilities other) {
        return new Capabilities(flags & other.flags);
    }

    public int lower16() {
        return (int) (flags & 0xffff);
    }

    public int upper16() {
        return (int) ((flags >>> 16) & 0xffff);
    }

    /** The subset of {@link #RESPONSE_SHAPING} flags: the key of a compatible backend pool. */
    public int responseProfile() {
        return (int) (flags & RESPONSE_SHAPING);
    }

    public boolean protocol41() {
        return has(PROTOCOL_41);
    }

    public boolean secureConnection() {
        return has(SECURE_CONNECTION);
    }

    public boolean pluginAuth() {
        return has(PLUGIN_AUTH);
    }

    public boolean pluginAuthLenencData() {
        return has(PLUGIN_AUTH_LENENC_CLIENT_DATA);
    }

    public boolean connectWithDb() {
        return has(CONNECT_WITH_DB);
    }

    public boolean connectAttrs() {
        return has(CONNECT_ATTRS);
    }

    public boolean deprecateEof() {
        return has(DEPRECATE_EOF);
    }

    public boolean ssl() {
        return has(SSL);
    }

    public boolean transactions() {
        return has(TRANSACTIONS);
    }

    public boolean sessionTrack() {
        return has(SESSION_TRACK);
    }

    public boolean multiStatements() {
        return has(MULTI_STATEMENTS);
    }

    public boolean multiResults() {
        return has(MULTI_RESULTS);
    }

    public boolean psMultiResults() {
        return has(PS_MULTI_RESULTS);
    }

    public boolean foundRows() {
        return has(FOUND_ROWS);
    }

    public boolean localFiles() {
        return has(LOCAL_FILES);
    }

    public boolean compress() {
        return has(COMPRESS);
    }

    public boolean queryAttributes() {
        return has(QUERY_ATTRIBUTES);
    }

    @Override
    public String toString() {
        return "Capabilities[0x" + Long.toHexString(flags) + "]";
    }
}
