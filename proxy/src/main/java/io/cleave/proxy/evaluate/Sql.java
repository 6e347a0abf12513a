package io.cleave.proxy.evaluate;

import java.nio.charset.StandardCharsets;

/** Quoting for the statements the proxy writes itself: safe in every sql_mode (ANSI_QUOTES, NO_BACKSLASH_ESCAPES). */
final class Sql {

    private Sql() {
    }

    /** A backquoted identifier. */
    static String identifier(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    /** {@code schema.table}, or the table alone when the schema is null (the session's). */
    static String table(String schema, String table) {
        return schema == null ? identifier(table) : identifier(schema) + "." + identifier(table);
    }

    /** A utf8mb4 string literal written as hex, so no quote or backslash in it can matter. */
    static String string(String value) {
        StringBuilder out = new StringBuilder("CONVERT(X'");
        for (byte b : value.getBytes(StandardCharsets.UTF_8)) {
            out.append(Character.forDigit((b >> 4) & 0xf, 16)).append(Character.forDigit(b & 0xf, 16));
        }
        return out.append("' USING utf8mb4)").toString();
    }
}
