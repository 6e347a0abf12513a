package io.cleave.router.plan;

import io.cleave.router.sql.ast.Expr;
import io.cleave.router.sql.ast.Statement;

import java.util.Locale;
import java.util.Set;

/**
 * Reads of no table whose answer may depend on the shard that gives it, so the default shard
 * gives it, as the one server of a home without rules would: system and status variables (a
 * shard's server id, its AUTO_INCREMENT step, its buffer pool; not the session settings the proxy
 * carries to every connection), sequences (NEXTVAL, LASTVAL,
 * SETVAL live on the default shard), stored functions (their bodies read the default shard's
 * tables), and the system schemas (information_schema counts rows, AUTO_INCREMENT values and sizes
 * per shard). A read of nothing but literals and the built-in functions listed here answers alike
 * on every shard and may go to any.
 */
final class CatalogReads {

    /** Built-in functions whose answer depends only on their arguments and the session (which follows it). */
    private static final Set<String> SAME_EVERYWHERE = Set.of(
            // control flow, comparison, casts
            "IF", "IFNULL", "NULLIF", "COALESCE", "ISNULL", "GREATEST", "LEAST", "INTERVAL", "CAST", "CONVERT",
            "NVL", "NVL2", "DECODE_ORACLE",
            // strings
            "CONCAT", "CONCAT_WS", "LENGTH", "CHAR_LENGTH", "CHARACTER_LENGTH", "OCTET_LENGTH", "BIT_LENGTH", "LOWER",
            "UPPER", "LCASE", "UCASE", "SUBSTRING", "SUBSTR", "MID", "LEFT", "RIGHT", "LPAD", "RPAD", "LTRIM", "RTRIM",
            "TRIM", "REPLACE", "REVERSE", "REPEAT", "SPACE", "INSTR", "LOCATE", "POSITION", "FIELD", "FIND_IN_SET",
            "ELT", "MAKE_SET", "EXPORT_SET", "FORMAT", "HEX", "UNHEX", "ASCII", "ORD", "CHAR", "BIN", "OCT", "CONV",
            "QUOTE", "SOUNDEX", "STRCMP", "SUBSTRING_INDEX", "INSERT", "REGEXP_REPLACE", "REGEXP_SUBSTR",
            "REGEXP_INSTR", "TO_BASE64", "FROM_BASE64", "COLLATION", "CHARSET", "COERCIBILITY", "WEIGHT_STRING",
            "MD5", "SHA", "SHA1", "SHA2", "CRC32", "COMPRESS", "UNCOMPRESS", "UNCOMPRESSED_LENGTH", "NATURAL_SORT_KEY",
            // numbers
            "ABS", "CEIL", "CEILING", "FLOOR", "ROUND", "TRUNCATE", "MOD", "POW", "POWER", "SQRT", "EXP", "LN", "LOG",
            "LOG2", "LOG10", "SIGN", "PI", "SIN", "COS", "TAN", "ASIN", "ACOS", "ATAN", "ATAN2", "COT", "DEGREES",
            "RADIANS", "DIV", "BIT_COUNT",
            // dates and times (the session's time zone follows it; the shards share one clock)
            "NOW", "CURRENT_TIMESTAMP", "LOCALTIME", "LOCALTIMESTAMP", "SYSDATE", "CURDATE", "CURRENT_DATE", "CURTIME",
            "CURRENT_TIME", "UTC_DATE", "UTC_TIME", "UTC_TIMESTAMP", "UNIX_TIMESTAMP", "FROM_UNIXTIME", "DATE",
            "TIME", "TIMESTAMP", "YEAR", "MONTH", "DAY", "DAYOFMONTH", "DAYOFWEEK", "DAYOFYEAR", "WEEKDAY", "WEEK",
            "WEEKOFYEAR", "YEARWEEK", "HOUR", "MINUTE", "SECOND", "MICROSECOND", "QUARTER", "MONTHNAME", "DAYNAME",
            "DATE_ADD", "DATE_SUB", "ADDDATE", "SUBDATE", "ADDTIME", "SUBTIME", "DATEDIFF", "TIMEDIFF", "TIMESTAMPADD",
            "TIMESTAMPDIFF", "DATE_FORMAT", "TIME_FORMAT", "STR_TO_DATE", "GET_FORMAT", "LAST_DAY", "MAKEDATE",
            "MAKETIME", "PERIOD_ADD", "PERIOD_DIFF", "SEC_TO_TIME", "TIME_TO_SEC", "TO_DAYS", "FROM_DAYS",
            "TO_SECONDS", "CONVERT_TZ", "EXTRACT",
            // JSON
            "JSON_OBJECT", "JSON_ARRAY", "JSON_EXTRACT", "JSON_UNQUOTE", "JSON_VALUE", "JSON_QUERY", "JSON_VALID",
            "JSON_TYPE", "JSON_LENGTH", "JSON_KEYS", "JSON_CONTAINS", "JSON_CONTAINS_PATH", "JSON_SET", "JSON_INSERT",
            "JSON_REPLACE", "JSON_REMOVE", "JSON_MERGE", "JSON_MERGE_PATCH", "JSON_MERGE_PRESERVE", "JSON_QUOTE",
            "JSON_DEPTH", "JSON_SEARCH", "JSON_ARRAY_APPEND", "JSON_ARRAY_INSERT", "JSON_COMPACT", "JSON_DETAILED",
            "JSON_PRETTY", "JSON_LOOSE", "JSON_EXISTS",
            // the session's own, which follows it to every shard
            "LAST_INSERT_ID", "ROW_COUNT", "FOUND_ROWS", "DATABASE", "SCHEMA", "USER", "CURRENT_USER", "SESSION_USER",
            "SYSTEM_USER", "CONNECTION_ID", "VERSION", "BENCHMARK", "SLEEP", "RAND", "UUID", "SYS_GUID",
            // aggregates over the statement's own rows
            "COUNT", "SUM", "MIN", "MAX", "AVG", "GROUP_CONCAT", "BIT_AND", "BIT_OR", "BIT_XOR");

    /**
     * Session variables the proxy carries to every connection of the session, so that each shard
     * answers them as the session set them: drivers read them on connections that are in a
     * transaction on some shard (Connector/J's transaction_read_only before a statement), and
     * sending such a read to the default shard would make it wait for a connection there.
     */
    private static final Set<String> FOLLOW_THE_SESSION = Set.of("transaction_read_only", "tx_read_only",
            "transaction_isolation", "tx_isolation", "autocommit", "sql_mode", "time_zone", "character_set_client",
            "character_set_connection", "character_set_results", "collation_connection", "max_allowed_packet",
            "net_write_timeout", "net_read_timeout", "wait_timeout", "interactive_timeout", "sql_select_limit",
            "foreign_key_checks", "unique_checks", "sql_auto_is_null", "sql_safe_updates", "group_concat_max_len",
            "innodb_lock_wait_timeout", "lock_wait_timeout", "max_statement_time", "session_track_schema",
            "session_track_state_change", "session_track_system_variables", "session_track_transaction_info",
            "sql_quote_show_create", "big_tables", "div_precision_increment", "max_join_size", "sql_big_selects",
            "sql_buffer_result", "sql_log_bin", "sql_notes", "sql_warnings", "default_week_format", "lc_time_names",
            "lc_messages", "version", "version_comment", "lower_case_table_names");

    private CatalogReads() {
    }

    /** Whether a statement that names no table reads something a shard may answer differently. */
    static boolean answersDiffer(Statement statement) {
        boolean[] differs = {false};
        Planner.visitExprs(statement, root -> differs[0] |= io.cleave.router.sql.ast.Exprs.anyMatch(root, CatalogReads::differs));
        return differs[0];
    }

    /** Whether it reads the AUTO_INCREMENT step or offset, which the proxy gives as one server's session has it. */
    static boolean readsAutoIncrementStep(Statement statement) {
        boolean[] reads = {false};
        Planner.visitExprs(statement, root -> reads[0] |= io.cleave.router.sql.ast.Exprs.anyMatch(root,
                e -> e instanceof Expr.SystemVariable v && v.name().toLowerCase(Locale.ROOT).startsWith("auto_increment_")));
        return reads[0];
    }

    private static boolean differs(Expr e) {
        if (e instanceof Expr.SystemVariable v) {
            return v.scope().effective() != io.cleave.router.sql.ast.VariableScope.SESSION
                    || !FOLLOW_THE_SESSION.contains(v.name().toLowerCase(Locale.ROOT));
        }
        if (e instanceof Expr.NextValue || e instanceof Expr.PreviousValue) {
            return true;
        }
        return e instanceof Expr.FunctionCall f && (f.schema() != null || !SAME_EVERYWHERE.contains(f.upperName()));
    }
}
