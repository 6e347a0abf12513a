package io.cleave.router.sql.lex;

import java.nio.charset.StandardCharsets;

/**
 * The words the lexer recognizes as keywords: MySQL's reserved words that matter to the parser
 * plus the non-reserved words the parser looks for. A non-reserved keyword may still be used as
 * an identifier ({@code status}, {@code date}, {@code value}); the parser decides by position.
 * Words not listed here lex as identifiers even if MySQL calls them keywords; the parser
 * recognizes the rare ones by their text.
 *
 * <p>Lookup ({@link #lookup}) hashes the bytes case-insensitively into an open-addressing table
 * and compares bytes, so recognizing a keyword allocates nothing.
 */
public enum Keyword {
    // Reserved words (cannot be unquoted identifiers).
    ADD(true), ALL(true), ALTER(true), ANALYZE(true), AND(true), AS(true), ASC(true), BETWEEN(true),
    BINARY(true), BOTH(true), BY(true), CALL(true), CASE(true), CHANGE(true), CHAR(true), CHARACTER(true),
    CHECK(true), COLLATE(true), COLUMN(true), CONSTRAINT(true), CONVERT(true), CREATE(true), CROSS(true),
    CURRENT_DATE(true), CURRENT_TIME(true), CURRENT_TIMESTAMP(true), CURRENT_USER(true), DATABASE(true),
    DATABASES(true), DAY_HOUR(true), DAY_MICROSECOND(true), DAY_MINUTE(true), DAY_SECOND(true),
    DEFAULT(true), DELAYED(true), DELETE(true), DESC(true), DESCRIBE(true), DISTINCT(true),
    DISTINCTROW(true), DIV(true), DROP(true), DUAL(true), ELSE(true), EXCEPT(true), EXISTS(true),
    EXPLAIN(true), FALSE(true), FOR(true), FORCE(true), FOREIGN(true), FROM(true), FULLTEXT(true),
    GRANT(true), GROUP(true), HAVING(true), HIGH_PRIORITY(true), HOUR_MICROSECOND(true),
    HOUR_MINUTE(true), HOUR_SECOND(true), IF(true), IGNORE(true), IN(true), INDEX(true), INFILE(true),
    INNER(true), INSERT(true), INTERSECT(true), INTERVAL(true), INTO(true), IS(true), JOIN(true),
    KEY(true), KEYS(true), KILL(true), LATERAL(true), LEADING(true), LEFT(true), LIKE(true), LIMIT(true),
    LINES(true), LOAD(true), LOCALTIME(true), LOCALTIMESTAMP(true), LOCK(true), LOW_PRIORITY(true),
    MATCH(true), MINUTE_MICROSECOND(true), MINUTE_SECOND(true), MOD(true), NATURAL(true), NOT(true),
    NO_WRITE_TO_BINLOG(true), NULL(true), OF(true), ON(true), OPTIMIZE(true), OR(true), ORDER(true),
    OUTER(true), OUTFILE(true), OVER(true), PARTITION(true), PRIMARY(true), PROCEDURE(true), PURGE(true),
    RANGE(true), READ(true), RECURSIVE(true), REFERENCES(true), REGEXP(true), RELEASE(true), RENAME(true),
    REPEAT(true), REPLACE(true), REQUIRE(true), RETURN(true), REVOKE(true), RIGHT(true), RLIKE(true),
    ROWS(true), SCHEMA(true), SCHEMAS(true), SECOND_MICROSECOND(true), SELECT(true), SEPARATOR(true),
    SET(true), SHOW(true), SPATIAL(true), SQL_BIG_RESULT(true), SQL_CALC_FOUND_ROWS(true),
    SQL_SMALL_RESULT(true), STRAIGHT_JOIN(true), TABLE(true), TERMINATED(true), THEN(true), TO(true),
    TRAILING(true), TRIGGER(true), TRUE(true), UNION(true), UNIQUE(true), UNLOCK(true), UPDATE(true),
    USAGE(true), USE(true), USING(true), UTC_DATE(true), UTC_TIME(true), UTC_TIMESTAMP(true),
    VALUES(true), WHEN(true), WHERE(true), WINDOW(true), WITH(true), WRITE(true), XOR(true),
    YEAR_MONTH(true),

    // Non-reserved words the parser looks for.
    AGAINST, ANY, AUTO_INCREMENT, BEGIN, CHAIN, CHARSET, COLUMNS, COMMENT, COMMIT, COMMITTED,
    CONSISTENT, DATA, DATE, DATETIME, DAY, DEALLOCATE, DO, DUPLICATE, END, ENGINE, ENGINES, ERRORS,
    ESCAPE, EVENT, EXECUTE, EXTENDED, FIELDS, FIRST, FLUSH, FORMAT, FULL, FUNCTION, GLOBAL, HANDLER,
    HOUR, INDEXES, ISOLATION, LAST, LEVEL, LOCAL, LOCKED, MEMBER, MICROSECOND, MINUTE, MODE, MONTH,
    NAMES, NEXT, NO, NOWAIT, OFFSET, ONLY, PASSWORD, PERSIST, PERSIST_ONLY, PREPARE, PROCESSLIST,
    QUARTER, QUICK, REPEATABLE, RETURNING, ROLE, ROLLBACK, ROLLUP, ROW, SAVEPOINT, SECOND,
    SERIALIZABLE, SESSION, SHARE, SKIP, SNAPSHOT, SOME, SOUNDS, SQL_BUFFER_RESULT, SQL_CACHE,
    SQL_NO_CACHE, START, STATUS, TABLES, TEMPORARY, TIME, TIMESTAMP, TRANSACTION, TRUNCATE,
    UNCOMMITTED, UNKNOWN, USER, VALUE, VARIABLES, VIEW, WARNINGS, WEEK, WORK, XA, YEAR;

    private static final Keyword[] ALL_KEYWORDS = values();
    private static final int TABLE_BITS = 11;
    private static final Keyword[] BY_HASH = new Keyword[1 << TABLE_BITS];
    private static final int MAX_LENGTH;

    static {
        int max = 0;
        for (Keyword k : ALL_KEYWORDS) {
            max = Math.max(max, k.upper.length);
            int slot = slotOf(hash(k.upper, 0, k.upper.length));
            while (BY_HASH[slot] != null) {
                slot = (slot + 1) & (BY_HASH.length - 1);
            }
            BY_HASH[slot] = k;
        }
        MAX_LENGTH = max;
    }

    private final boolean reserved;
    private final byte[] upper;

    Keyword() {
        this(false);
    }

    Keyword(boolean reserved) {
        this.reserved = reserved;
        this.upper = name().getBytes(StandardCharsets.US_ASCII);
    }

    /** Reserved words need backquotes to be used as identifiers. */
    public boolean isReserved() {
        return reserved;
    }

    /** The upper-case spelling as ASCII bytes. Shared for speed: callers must not modify it. */
    public byte[] upperBytes() {
        return upper;
    }

    public static Keyword of(int ordinal) {
        return ALL_KEYWORDS[ordinal];
    }

    /** The keyword spelled by {@code src[start, end)} in any letter case, or {@code null}. */
    public static Keyword lookup(byte[] src, int start, int end) {
        return lookup(src, start, end, hash(src, start, end));
    }

    /** {@link #lookup(byte[], int, int)} with the case-folded hash already computed by the caller's scan. */
    static Keyword lookup(byte[] src, int start, int end, int hash) {
        int length = end - start;
        if (length < 2 || length > MAX_LENGTH) {
            return null;
        }
        int slot = slotOf(hash);
        Keyword k;
        while ((k = BY_HASH[slot]) != null) {
            if (k.upper.length == length && equalsUpper(k.upper, src, start)) {
                return k;
            }
            slot = (slot + 1) & (BY_HASH.length - 1);
        }
        return null;
    }

    private static boolean equalsUpper(byte[] upper, byte[] src, int start) {
        for (int i = 0; i < upper.length; i++) {
            int b = src[start + i];
            if (b >= 'a' && b <= 'z') {
                b -= 32;
            }
            if (b != upper[i]) {
                return false;
            }
        }
        return true;
    }

    /** Must match the hash {@link SqlLexer} computes while scanning a word. */
    static int hash(byte[] src, int start, int end) {
        int h = 0;
        for (int i = start; i < end; i++) {
            // Clearing bit 5 folds ASCII letter case; other bytes may collide, which the compare resolves.
            h = h * 31 + (src[i] & 0xDF);
        }
        return h;
    }

    private static int slotOf(int hash) {
        return (hash ^ (hash >>> TABLE_BITS) ^ (hash >>> 22)) & ((1 << TABLE_BITS) - 1);
    }
}
