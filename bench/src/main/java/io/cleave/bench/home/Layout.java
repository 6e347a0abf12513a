package io.cleave.bench.home;

/** How a home's tables are placed, after the sample configs in config/. */
public enum Layout {
    /** config/single.yaml: no sharding rules, every table lives on shard 0. */
    SINGLE,
    /** config/tpcc.yaml: every table but item sharded by warehouse in contiguous ranges; item a reference table. */
    TPCC,
    /** config/sysbench.yaml: sbtest1..sbtestN hashed by id into 256 buckets. */
    SYSBENCH,
    /**
     * TPC-C's layout plus {@code accounts}, sharded by id in one fixed range per shard (see
     * {@link HomeSpec#firstAccount}), so a client knows which shard holds which account.
     */
    CROSS_SHARD,
    /**
     * The chaos soak's home: TPC-C's layout, bank accounts and their entries sharded by branch in one
     * fixed range per shard (see {@link HomeSpec#firstBranch}), and upserted rows hashed by key into
     * 64 buckets (keyspace {@code kv}, table {@code kv_hashed}); every other table lives on shard 0.
     */
    CHAOS
}
