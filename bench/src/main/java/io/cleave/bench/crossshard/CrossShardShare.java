package io.cleave.bench.crossshard;

import java.util.Optional;

/**
 * The share of a TPC-C run's transactions that crossed shards. From the proxy's transaction
 * counter when the daemon exports one (cross-shard over all transactions it saw end); otherwise
 * from the shards' Com_xa_start: every cross-shard transaction starts at least one XA branch (one
 * per shard after the first), so the branches started over the transactions the driver completed
 * is an upper estimate: a transaction reaching three shards counts twice, and retried or failed
 * attempts count too.
 *
 * @param crossShard   cross-shard transactions, or XA branches started
 * @param transactions the denominator: all transactions the proxy saw end, or the driver's completed
 */
public record CrossShardShare(Source source, long crossShard, long transactions) {

    public enum Source {
        /** cleave_proxy_transactions_total{kind="cross_shard"} over all kinds, deltas over the run. */
        PROXY_METRICS,
        /** Com_xa_start summed over the shards, delta over the run, over the driver's completed transactions. */
        XA_BRANCHES
    }

    public static CrossShardShare of(long xaStarts, long completed, Optional<ProxyTransactions> proxyCounted) {
        return proxyCounted.filter(p -> p.total() > 0)
            .map(p -> new CrossShardShare(Source.PROXY_METRICS, p.crossShard(), p.total()))
            .orElseGet(() -> new CrossShardShare(Source.XA_BRANCHES, xaStarts, completed));
    }

    /** Between 0 and 1 (XA branches can exceed 1 when most transactions reach 3+ shards); NaN without transactions. */
    public double share() {
        return transactions <= 0 ? Double.NaN : (double) crossShard / transactions;
    }

    /** How the figure was taken, for the table's note. */
    public String describe() {
        return switch (source) {
            case PROXY_METRICS -> "cross-shard transactions counted by the proxy (cleave_proxy_transactions_total, "
                + "kind cross_shard) over all transactions it saw end";
            case XA_BRANCHES -> "XA branches started on the shards (Com_xa_start) over the transactions the driver "
                + "completed; this counts branches, so a transaction reaching 3 shards counts twice, and retried "
                + "attempts count too";
        };
    }
}
