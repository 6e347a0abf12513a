package io.cleave.proxy.session;

import io.cleave.router.sql.lex.Charsets;

import java.util.Locale;

/** A connection character set and optional collation, as SET NAMES takes them. */
public record Charset(String charset, String collation) {

    public Charset {
        charset = charset.toLowerCase(Locale.ROOT);
        collation = collation == null ? null : collation.toLowerCase(Locale.ROOT);
    }

    /** The SET NAMES clause that establishes this charset on a connection. */
    public String setNamesClause() {
        return collation == null ? "NAMES " + charset : "NAMES " + charset + " COLLATE " + collation;
    }

    /**
     * The Java charset that decodes this character set's bytes into the characters the server
     * sees, or null when Java has none (string keys in it then cannot be placed on a shard).
     */
    public java.nio.charset.Charset javaCharset() {
        return Charsets.javaCharset(charset);
    }
}
