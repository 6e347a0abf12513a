package io.cleave.proxy.merge;

import java.math.BigInteger;
import java.util.Map;

/**
 * The session variables that change a merged answer, as one server applies them: sql_select_limit
 * caps the rows of a top-level SELECT without its own LIMIT, and div_precision_increment sets the
 * digits AVG adds to its argument's scale.
 *
 * @param selectLimit           {@link Long#MAX_VALUE} when the session keeps the default (no cap)
 * @param divPrecisionIncrement 0 to 30, 4 by default
 */
public record SessionMergeSettings(long selectLimit, int divPrecisionIncrement) {

    public static final SessionMergeSettings DEFAULT = new SessionMergeSettings(Long.MAX_VALUE, 4);

    /** From the session's system variables, as read back from a shard after SET (name to SQL literal). */
    public static SessionMergeSettings of(Map<String, String> systemVariables) {
        String limit = systemVariables.get("sql_select_limit");
        String increment = systemVariables.get("div_precision_increment");
        if (limit == null && increment == null) {
            return DEFAULT;
        }
        return new SessionMergeSettings(limit == null ? Long.MAX_VALUE : asLong(limit),
                increment == null ? 4 : (int) Math.min(30, asLong(increment)));
    }

    private static long asLong(String literal) {
        BigInteger v = new BigInteger(literal.strip());
        return v.bitLength() < 64 ? v.longValue() : Long.MAX_VALUE;
    }
}
