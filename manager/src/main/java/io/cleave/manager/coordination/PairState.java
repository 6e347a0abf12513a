package io.cleave.manager.coordination;

/** Where this home stands in its standby pair, as far as etcd tells. */
public enum PairState {
    /** Not asked etcd yet. */
    STARTING,
    /** Holds the primary's lease and serves. */
    PRIMARY,
    /** Would be the primary but cannot prove it holds the lease (etcd unreachable, or another holds it): refuses and retries. */
    FENCED,
    /** A newer epoch exists: another home took over. Refuses until it rejoins as that home's standby. */
    SUPERSEDED,
    /** The standby: watches the primary's key and takes over once its lease lapsed. */
    STANDBY,
    /** Won the takeover in etcd; its shards are being promoted. */
    PROMOTING
}
