package io.cleave.manager.config;

import java.time.Duration;
import java.util.List;

/**
 * Where a standby pair learns who is its primary: an etcd cluster (three members for a majority that survives
 * one's loss). The primary's daemon holds a key there on a lease of {@code lease} and renews it; the standby's
 * promotes itself once that key is gone. Both homes of a pair name the same cluster (the standby's config is
 * the primary's, restored).
 *
 * @param etcd    the members' client URLs, e.g. http://10.0.0.1:2379, or all https://...
 * @param cluster names the pair's keys in etcd ({@code /cleave/CLUSTER/...}): several pairs can share one etcd
 * @param lease   how long the primary's key outlives its last renewal at etcd
 * @param rejoin  what an old primary does once it finds its standby took over: wait for {@code cleave rejoin}, or
 *                rejoin as the new primary's standby by itself (after the same check of its shards' GTIDs)
 * @param tls     the CA and client certificate for https URLs; {@link EtcdTls#NONE} with http ones
 */
public record CoordinationConfig(List<String> etcd, String cluster, Duration lease, Rejoin rejoin, EtcdTls tls) {

    /** How an old primary, superseded in etcd, becomes the new primary's standby. */
    public enum Rejoin {
        /** It stays fenced until {@code cleave rejoin} (or a rebuild with {@code cleave rejoin --rebuild}). */
        MANUAL,
        /** It rejoins by itself when its shards hold nothing the new primary lacks; else it stays fenced, saying why. */
        AUTO
    }

    /** Short enough for writes to be back within about 8 s of a primary's loss, long enough for etcd's own elections. */
    public static final int DEFAULT_LEASE_SECONDS = 3;

    public CoordinationConfig {
        etcd = List.copyOf(etcd);
    }

    public CoordinationConfig(List<String> etcd, String cluster, Duration lease) {
        this(etcd, cluster, lease, Rejoin.MANUAL, EtcdTls.NONE);
    }

    /** Whether the members are reached over TLS (all URLs are https: the loader refuses a mix). */
    public boolean https() {
        return !etcd.isEmpty() && etcd.get(0).startsWith("https://");
    }
}
