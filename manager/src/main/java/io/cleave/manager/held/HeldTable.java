package io.cleave.manager.held;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * One table of a refused database set aside in Cleave's own schema on a shard ({@link HeldTables}): where it was
 * ({@code schema}.{@code table}) and the name it is held under ({@code cleave}.{@code heldAs}). The held name is
 * derived from the original alone, so holding again after a crash finds the same name, and it fits MariaDB's 64
 * characters whatever the original's length (a database and a table name together may be 128).
 */
public record HeldTable(String schema, String table, String heldAs) {

    /** Where held tables go: Cleave's schema, which no client may name or list. */
    public static final String SCHEMA = "cleave";
    static final String PREFIX = "held_";

    public static HeldTable of(String schema, String table) {
        return new HeldTable(schema, table, heldName(schema, table));
    }

    /** {@code held_} and 24 hex digits of a SHA-256 of the schema and table names (case kept: names are exact on Linux). */
    static String heldName(String schema, String table) {
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            sha.update(schema.getBytes(StandardCharsets.UTF_8));
            sha.update((byte) 0);
            sha.update(table.getBytes(StandardCharsets.UTF_8));
            return PREFIX + HexFormat.of().formatHex(sha.digest(), 0, 12);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The qualified original name, quoted. */
    String original() {
        return quote(schema) + "." + quote(table);
    }

    /** The qualified held name, quoted. */
    String held() {
        return quote(SCHEMA) + "." + quote(heldAs);
    }

    /** Moves the table out of its database: views and routines naming it fail at the server from then on. */
    String holdSql() {
        return "RENAME TABLE " + original() + " TO " + held();
    }

    /** Puts the table back where it was. */
    String restoreSql() {
        return "RENAME TABLE " + held() + " TO " + original();
    }

    static String quote(String name) {
        return "`" + name.replace("`", "``") + "`";
    }
}
