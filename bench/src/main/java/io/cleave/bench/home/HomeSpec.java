package io.cleave.bench.home;

import java.util.Map;
import java.util.Optional;

/**
 * One Cleave home to benchmark: how many shards share the total buffer pool, how tables are
 * placed, and the few settings a benchmark host may need (server binary, datadir root on flash,
 * proxy event loops; 0 keeps the daemon's default; CPU placement).
 *
 * @param warehouses     TPC-C warehouses spread over the shards (TPCC layout)
 * @param sysbenchTables sbtest tables hashed over the shards (SYSBENCH layout)
 * @param cpuSets        {@code auto} (cores split evenly, a NUMA node per shard where the node count allows),
 *                       or {@code none} (shards unpinned)
 * @param proxyOptions   further settings of the {@code proxy:} section, by key (e.g. deadlock_check_after_ms)
 */
public record HomeSpec(int shards, String bufferPool, Layout layout, int warehouses, int sysbenchTables,
                       String serverBinary, Optional<String> datadirRoot, int proxyThreads, String cpuSets,
                       Map<String, String> proxyOptions) {

    public HomeSpec {
        if (shards < 1) {
            throw new IllegalArgumentException("shards must be at least 1: " + shards);
        }
        if ((layout == Layout.TPCC || layout == Layout.CROSS_SHARD || layout == Layout.CHAOS && warehouses > 0)
            && warehouses < shards) {
            throw new IllegalArgumentException("TPC-C over " + shards + " shards needs at least " + shards
                + " warehouses, not " + warehouses);
        }
        if (layout == Layout.SYSBENCH && sysbenchTables < 1) {
            throw new IllegalArgumentException("sysbench layout needs at least one table");
        }
        if (!cpuSets.equals("auto") && !cpuSets.equals("none")) {
            throw new IllegalArgumentException("cpu sets auto or none expected, not " + cpuSets);
        }
        if (!bufferPool.matches("\\d+[KMGT]?")) {
            throw new IllegalArgumentException("buffer pool size like 512M or 4G expected, not " + bufferPool);
        }
        for (String key : proxyOptions.keySet()) {
            if (!key.matches("[a-z_]+")) {
                throw new IllegalArgumentException("not a proxy setting: " + key);
            }
        }
        proxyOptions = Map.copyOf(proxyOptions);
    }

    public HomeSpec(int shards, String bufferPool, Layout layout, int warehouses, int sysbenchTables,
                    String serverBinary, Optional<String> datadirRoot, int proxyThreads, String cpuSets) {
        this(shards, bufferPool, layout, warehouses, sysbenchTables, serverBinary, datadirRoot, proxyThreads, cpuSets,
            Map.of());
    }

    public HomeSpec withShards(int n) {
        return new HomeSpec(n, bufferPool, layout, warehouses, sysbenchTables, serverBinary, datadirRoot, proxyThreads,
            cpuSets, proxyOptions);
    }

    public HomeSpec withProxyOptions(Map<String, String> options) {
        return new HomeSpec(shards, bufferPool, layout, warehouses, sysbenchTables, serverBinary, datadirRoot,
            proxyThreads, cpuSets, options);
    }

    /**
     * Account ids of one shard in the CROSS_SHARD layout start here: shard s owns the ids from
     * s * ACCOUNT_RANGE + 1 on, whatever the number of accounts, so the ranges need no sizes.
     */
    public static final long ACCOUNT_RANGE = 1_000_000_000L;

    /** The first account id of a shard's range (CROSS_SHARD layout). */
    public static long firstAccount(int shard) {
        return shard * ACCOUNT_RANGE + 1;
    }

    /** The shard whose range holds an account id (CROSS_SHARD layout, ids from {@link #firstAccount}). */
    public static int shardOfAccount(long id) {
        return (int) ((id - 1) / ACCOUNT_RANGE);
    }

    /**
     * Bank branches of one shard in the CHAOS layout start here: shard s owns the branches from
     * s * BRANCH_RANGE + 1 on (the last shard's range is open), so the branches need no count.
     */
    public static final int BRANCH_RANGE = 1_000;

    /** The first branch of a shard's range (CHAOS layout). */
    public static int firstBranch(int shard) {
        return shard * BRANCH_RANGE + 1;
    }

    /** The first and last warehouse on a shard: contiguous, equal-sized ranges, the remainder on the last ones. */
    public int firstWarehouse(int shard) {
        return shard * warehouses / shards + 1;
    }

    public int lastWarehouse(int shard) {
        return (shard + 1) * warehouses / shards;
    }
}
