package io.cleave.proxy.evaluate;

/**
 * How much one evaluated read may gather from the shards ({@code proxy.evaluate_max_rows},
 * {@code proxy.evaluate_max_bytes}): past either, the statement is refused with 1235 instead of
 * the proxy holding rows without bound. The default byte bound keeps the text sent to the
 * evaluating shard (values as hex literals, about twice their size) under a server's default
 * max_allowed_packet of 16M.
 */
public record EvaluationLimits(long maxRows, long maxBytes) {

    public static final EvaluationLimits DEFAULT = new EvaluationLimits(100_000, 4L << 20);

    public EvaluationLimits {
        if (maxRows < 0 || maxBytes < 0) {
            throw new IllegalArgumentException("evaluation limits cannot be negative");
        }
    }
}
