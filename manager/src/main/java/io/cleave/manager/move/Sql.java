package io.cleave.manager.move;

import io.cleave.proxy.cutover.GhostRows;
import io.cleave.router.shardmap.KeySet;

import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;

/** SQL text the move pipeline (and a backup, for paging and checksums) sends to shards: the moving keys as a condition, key-order paging, checksums. */
public final class Sql {

    /** The hash bucket of an integer key on a shard, equal to {@link io.cleave.router.keyspace.HashShardFunction}'s. */
    static final String BUCKET_FUNCTION_DDL = "CREATE FUNCTION IF NOT EXISTS " + GhostRows.BUCKET_FUNCTION
            + "(k BIGINT, n INT) RETURNS INT DETERMINISTIC NO SQL\n"
            + "BEGIN\n"
            + "  DECLARE u BIGINT UNSIGNED DEFAULT CAST(k AS UNSIGNED);\n"
            + "  DECLARE h DECIMAL(40,0) DEFAULT 14695981039346656037;\n"
            + "  DECLARE x BIGINT UNSIGNED;\n"
            + "  DECLARE i INT DEFAULT 0;\n"
            + "  WHILE i < 8 DO\n"
            + "    SET x = CAST(h AS UNSIGNED) ^ ((u >> (8 * i)) & 255);\n"
            + "    SET h = MOD(CAST(x AS DECIMAL(40,0)) * 1099511628211, 18446744073709551616);\n"
            + "    SET i = i + 1;\n"
            + "  END WHILE;\n"
            + "  SET x = CAST(h AS UNSIGNED);\n"
            + "  SET x = x ^ (x >> 33);\n"
            + "  SET x = CAST(MOD(CAST(x AS DECIMAL(40,0)) * 18397679294719823053, 18446744073709551616) AS UNSIGNED);\n"
            + "  SET x = x ^ (x >> 33);\n"
            + "  SET x = CAST(MOD(CAST(x AS DECIMAL(40,0)) * 14181476777654086739, 18446744073709551616) AS UNSIGNED);\n"
            + "  SET x = x ^ (x >> 33);\n"
            + "  RETURN MOD(x, n);\n"
            + "END";

    private Sql() {
    }

    /**
     * Installs the bucket function on a shard. Clients' statements call it too (the proxy adds it to
     * their conditions while a move runs, and they run as the clients' accounts), so every account
     * may execute it: it reads nothing. Servers without GRANT ... TO PUBLIC (MySQL, MariaDB before
     * 10.11) keep it to accounts granted EXECUTE on it.
     */
    public static void installBucketFunction(Statement s) throws SQLException {
        s.execute(BUCKET_FUNCTION_DDL);
        try {
            s.execute("GRANT EXECUTE ON FUNCTION " + GhostRows.BUCKET_FUNCTION + " TO PUBLIC");
        } catch (SQLException e) {
            // No PUBLIC on this server: see above.
        }
    }

    public static String quote(String identifier) {
        return "`" + identifier.replace("`", "``") + "`";
    }

    /** {@code s} as a string literal (backslashes escaped too: the shards may run without NO_BACKSLASH_ESCAPES). */
    public static String string(String s) {
        return "'" + s.replace("\\", "\\\\").replace("'", "''") + "'";
    }

    /** A condition true for the rows of the moving keys. */
    public static String moving(String column, KeySet keys, int buckets) {
        String c = quote(column);
        if (keys instanceof KeySet.Buckets b) {
            return GhostRows.BUCKET_FUNCTION + "(" + c + ", " + buckets + ") BETWEEN " + b.from() + " AND " + b.to();
        }
        KeySet.Keys k = (KeySet.Keys) keys;
        return k.to() == Long.MAX_VALUE ? c + " >= " + k.from() : c + " BETWEEN " + k.from() + " AND " + k.to();
    }

    /** {@code (a, b) > (?, ?)} spelled out so every server uses the primary key's range for it. */
    public static String after(List<String> pk) {
        return compare(pk, 0, ">");
    }

    /** {@code (a, b) <= (?, ?)}. */
    static String upTo(List<String> pk) {
        return compare(pk, 0, "<=");
    }

    private static String compare(List<String> pk, int i, String op) {
        String c = quote(pk.get(i));
        if (i == pk.size() - 1) {
            return c + " " + op + " ?";
        }
        String strict = op.startsWith(">") ? ">" : "<";
        return "(" + c + " " + strict + " ? OR (" + c + " = ? AND " + compare(pk, i + 1, op) + "))";
    }

    /** How many parameters {@link #after}/{@link #upTo} take, and in which order of the key's values. */
    public static int[] compareParameters(int columns) {
        int[] order = new int[columns * 2 - 1];
        int n = 0;
        for (int i = 0; i < columns - 1; i++) {
            order[n++] = i;
            order[n++] = i;
        }
        order[n] = columns - 1;
        return order;
    }

    public static String orderBy(List<String> pk) {
        StringBuilder b = new StringBuilder();
        for (String c : pk) {
            b.append(b.isEmpty() ? "" : ", ").append(quote(c));
        }
        return b.toString();
    }

    /** COUNT and BIT_XOR(CRC32) over every column of the rows (NULLs told apart from empty values). */
    public static String checksum(List<String> columns) {
        return "COUNT(*), COALESCE(BIT_XOR(" + rowChecksum(columns) + "), 0)";
    }

    /** CRC32 over every column of one row; XORed over rows it is {@link #checksum}'s second value. */
    public static String rowChecksum(List<String> columns) {
        StringBuilder concat = new StringBuilder("CONCAT_WS('#'");
        // CONCAT_WS skips NULLs: the ISNULL flags keep NULL apart from a missing or empty value.
        StringBuilder nulls = new StringBuilder("CONCAT(");
        for (int i = 0; i < columns.size(); i++) {
            concat.append(", ").append(quote(columns.get(i)));
            nulls.append(i == 0 ? "" : ", ").append("ISNULL(").append(quote(columns.get(i))).append(")");
        }
        concat.append(')');
        nulls.append(')');
        return "CRC32(CONCAT(" + concat + ", '#', " + nulls + "))";
    }
}
