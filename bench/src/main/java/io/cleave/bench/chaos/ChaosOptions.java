package io.cleave.bench.chaos;

import java.time.Duration;
import java.util.List;
import java.util.Set;

/**
 * Everything a soak run depends on besides the machine: the home's shape, the data, the clients,
 * and what the fault schedule is drawn from. Recorded with the schedule, so a replay runs the same.
 *
 * @param seed               the schedule's and the clients' random numbers
 * @param durationMillis     how long faults are injected (the run takes longer: checks pause it)
 * @param faultsPerMinute    the schedule's mean rate
 * @param faults             the kinds drawn (their labels)
 * @param shards             shards at the start; scale faults keep between {@code minShards} and {@code maxShards}
 * @param warehouses         TPC-C warehouses (0: no TPC-C), at least one per shard
 * @param branchesPerShard   bank branches in each shard's range at the start
 * @param accountsPerBranch  bank accounts per branch
 * @param kvKeys             keys of kv_hashed; each of the tables that start on shard 0 holds a quarter as many
 * @param transferClients    bank transfer clients
 * @param upsertClients      upsert clients
 * @param tpccTerminals      TPC-C terminals (with warehouses)
 * @param readers            reader clients checking invariants one server keeps
 * @param globalReads        whether readers also read sums over every shard in one transaction (the
 *                           total, entries summing to zero): one server keeps that invariant, Cleave
 *                           only with consistent reads across shards
 * @param bufferPool         the home's total buffer pool
 */
public record ChaosOptions(long seed, long durationMillis, double faultsPerMinute, List<String> faults, int shards,
                           int minShards, int maxShards, int warehouses, int branchesPerShard, int accountsPerBranch,
                           int kvKeys, int transferClients, int upsertClients, int tpccTerminals, int readers,
                           boolean globalReads, String bufferPool) {

    public ChaosOptions {
        faults = List.copyOf(faults);
        if (shards < 2) {
            throw new IllegalArgumentException("the soak needs at least 2 shards, not " + shards);
        }
        if (minShards < 1 || minShards > shards || maxShards < shards) {
            throw new IllegalArgumentException("shards " + shards + " must lie within " + minShards + ".." + maxShards);
        }
        if (warehouses != 0 && warehouses < shards) {
            throw new IllegalArgumentException("TPC-C needs a warehouse per shard at least (" + shards + "), or 0: "
                + warehouses);
        }
        if (branchesPerShard < 1 || accountsPerBranch < 2 || kvKeys < 8) {
            throw new IllegalArgumentException("at least one branch per shard, two accounts per branch and 8 keys");
        }
        if (transferClients < 1 || upsertClients < 1 || readers < 0 || tpccTerminals < 0) {
            throw new IllegalArgumentException("at least one transfer and one upsert client");
        }
        if (durationMillis < 1000 || faultsPerMinute <= 0) {
            throw new IllegalArgumentException("a duration of a second at least and a positive fault rate");
        }
        FaultKind.parseList(String.join(",", faults));
    }

    public Duration duration() {
        return Duration.ofMillis(durationMillis);
    }

    public Set<FaultKind> faultKinds() {
        return FaultKind.parseList(String.join(",", faults));
    }
}
