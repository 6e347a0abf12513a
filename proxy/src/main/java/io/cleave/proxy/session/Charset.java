package io.cleave.proxy.session;

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

    public java.nio.charset.Charset javaCharset() {
        switch (charset) {
            case "latin1":
                return java.nio.charset.StandardCharsets.ISO_8859_1;
            case "ascii":
                return java.nio.charset.StandardCharsets.US_ASCII;
            case "binary":
                return java.nio.charset.StandardCharsets.ISO_8859_1;
            default:
                return java.nio.charset.StandardCharsets.UTF_8;
        }
    }
}
