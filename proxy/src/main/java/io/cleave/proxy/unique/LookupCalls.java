package io.cleave.proxy.unique;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;

/**
 * How the proxy reads and writes a global unique key's lookup table on a client's own connection,
 * in the client's transaction, though no client account holds a privilege on the {@code cleave}
 * schema: each lookup statement goes through {@link #PROCEDURE}, which runs as the shard account
 * (SQL SECURITY DEFINER, executable by PUBLIC) and executes a statement only with the proxy's
 * seal on it, a digest keyed by this run's secret ({@code cleave.lookup_secret}, which only the
 * shard account reads), so a client calling it itself (SQL it assembles at run time) gets 1370.
 * The statement goes as hex and its values as hex literals with introducers (built with
 * {@link io.cleave.router.plan.PortableLiterals}), so it reads the same inside the procedure,
 * whatever the caller's sql_mode and character set; the procedure applies the caller's sql_mode
 * (strictness) before running it.
 * <p>
 * That the account may write the table is checked by the shard itself, first: before the
 * lookup's claims, on the same connection and in the same transaction, a write that changes no
 * row ({@link #writeCheck}) gets the shard's own 1142 for the table when the account may not, and
 * the statement is undone with what followed it.
 * <p>
 * MySQL shards have neither the procedure nor GRANT ... TO PUBLIC: there the statements go as
 * they are, and only accounts with privileges on the {@code cleave} schema can use such tables.
 */
public final class LookupCalls {

    public static final String PROCEDURE = "cleave.unique_lookup";
    public static final String SECRET_TABLE = "cleave.lookup_secret";
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] START = ("CALL " + PROCEDURE + "(@@session.sql_mode, X'").getBytes(StandardCharsets.US_ASCII);
    private static final ThreadLocal<MessageDigest> SHA256 = ThreadLocal.withInitial(() -> {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    });

    /** The kind of write a lookup statement serves, checked on the table first. */
    public enum Write {
        INSERT, REPLACE, UPDATE,
        /** INSERT ... ON DUPLICATE KEY UPDATE: INSERT, and UPDATE of the columns it assigns. */
        UPSERT
    }

    /** For MySQL shards: every statement as it is, and no check (see the class). */
    public static final LookupCalls DIRECT = new LookupCalls(null);

    private final byte[] secret;

    /** {@code secret}: this run's, as hex (what {@link #setup} stores). */
    public LookupCalls(String secret) {
        this.secret = secret == null ? null : secret.getBytes(StandardCharsets.US_ASCII);
    }

    /** A new random secret for a run, as hex. */
    public static String newSecret() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return HexFormat.of().formatHex(b);
    }

    /** {@code statement} as the proxy sends it through {@link #PROCEDURE}: hex, with its seal. */
    public byte[] call(byte[] statement) {
        if (secret == null) {
            return statement;
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream(START.length + statement.length * 2 + 72);
        out.write(START, 0, START.length);
        io.cleave.router.plan.PortableLiterals.hexDigits(statement, out);
        out.write('\'');
        out.write(',');
        out.write(' ');
        out.write('\'');
        byte[] seal = seal(statement);
        out.write(seal, 0, seal.length);
        out.write('\'');
        out.write(')');
        return out.toByteArray();
    }

    /**
     * The seal the procedure checks: {@code SHA2(secret || SHA2(secret || statement))} in hex (nested,
     * so a seal cannot be extended to a longer statement).
     */
    byte[] seal(byte[] statement) {
        MessageDigest sha = SHA256.get();
        sha.update(secret);
        byte[] inner = hex(sha.digest(statement));
        sha.update(secret);
        return hex(sha.digest(inner));
    }

    /**
     * A write to {@code schema.table} that changes no row, run as the client before its lookup
     * claims ({@code columns}: the key's; {@code updated}: what an upsert assigns): the shard answers it with its own 1142 (naming the table and the missing privilege)
     * when the account may not write so; null on MySQL shards. The sql_mode is cleared for it alone: a strict mode would
     * refuse a column list that leaves out a column without a default, though no row is written.
     */
    public byte[] writeCheck(Write write, String schema, String table, List<String> columns, List<String> updated) {
        if (secret == null) {
            return null;
        }
        StringBuilder s = new StringBuilder("SET STATEMENT sql_mode = '' FOR ");
        String qualified = identifier(schema) + "." + identifier(table);
        if (write == Write.UPDATE) {
            s.append("UPDATE ").append(qualified).append(" SET ").append(identifier(columns.get(0))).append(" = NULL WHERE 0");
        } else {
            s.append(write == Write.REPLACE ? "REPLACE" : "INSERT").append(" INTO ").append(qualified).append(" (");
            for (int i = 0; i < columns.size(); i++) {
                s.append(i == 0 ? "" : ", ").append(identifier(columns.get(i)));
            }
            s.append(") SELECT ");
            for (int i = 0; i < columns.size(); i++) {
                s.append(i == 0 ? "NULL" : ", NULL");
            }
            s.append(" FROM DUAL WHERE 0");
            for (int i = 0; write == Write.UPSERT && i < updated.size(); i++) {
                s.append(i == 0 ? " ON DUPLICATE KEY UPDATE " : ", ").append(identifier(updated.get(i))).append(" = NULL");
            }
        }
        return s.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** What prepares a MariaDB shard for the lookup statements of a run with {@code secret} (see the class). */
    public static List<String> setup(String secret) {
        return List.of("CREATE TABLE IF NOT EXISTS " + SECRET_TABLE + " (id TINYINT NOT NULL PRIMARY KEY,"
                        + " secret VARBINARY(64) NOT NULL) ENGINE=InnoDB",
                "REPLACE INTO " + SECRET_TABLE + " VALUES (1, '" + secret.replaceAll("[^0-9a-f]", "") + "')");
    }

    /** The procedure's parameters and body (see the class). */
    public static final String PARAMETERS = "IN mode VARCHAR(1024), IN stmt LONGBLOB, IN seal VARBINARY(64)";
    public static final String BODY = "BEGIN"
            + " IF seal IS NULL OR NOT EXISTS (SELECT 1 FROM " + SECRET_TABLE + " WHERE id = 1"
            + " AND CAST(SHA2(CONCAT(secret, CAST(SHA2(CONCAT(secret, stmt), 256) AS BINARY)), 256) AS BINARY) = seal) THEN"
            + " SIGNAL SQLSTATE '42000' SET MYSQL_ERRNO = 1370,"
            + " MESSAGE_TEXT = 'cleave.unique_lookup runs the lookup statements of the proxy only';"
            + " END IF;"
            + " SET SESSION sql_mode = mode;"
            + " EXECUTE IMMEDIATE CONVERT(stmt USING utf8mb4);"
            + " END";

    private static String identifier(String name) {
        return "`" + name.replace("`", "``") + "`";
    }

    private static byte[] hex(byte[] digest) {
        byte[] out = new byte[digest.length * 2];
        for (int i = 0; i < digest.length; i++) {
            out[2 * i] = HEX[(digest[i] >> 4) & 0xf];
            out[2 * i + 1] = HEX[digest[i] & 0xf];
        }
        return out;
    }
}
