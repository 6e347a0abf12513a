package io.cleave.manager.coordination;

import java.util.List;

/**
 * The pair as this home's daemon sees it, for {@code cleave status}, {@code GET /v1/coordination} and /metrics.
 *
 * @param state          where this home stands
 * @param epoch          the pair's epoch in etcd (the last read)
 * @param primary        the primary's claim in etcd, null when none lives (or etcd was not read)
 * @param holdsLease     whether this daemon holds the primary's lease now
 * @param leaseLeftMillis until when this daemon can be sure its lease lives (it fences a margin before); 0 without one
 * @param reason         why it is fenced or what failed last; null when all is well
 * @param shardsReadOnly the shards where the fence's (or the lift's) read_only has not taken yet, being tried
 *                       again; null when it took everywhere
 */
public record CoordinationReport(PairState state, long epoch, PrimaryClaim primary, boolean holdsLease,
                                 long leaseLeftMillis, String reason, String cluster, List<String> etcd,
                                 String shardsReadOnly) {

    /** This report with what the daemon's {@link ShardsReadOnly} says. */
    public CoordinationReport withShardsReadOnly(String pending) {
        return new CoordinationReport(state, epoch, primary, holdsLease, leaseLeftMillis, reason, cluster, etcd, pending);
    }
}
