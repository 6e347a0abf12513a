package io.cleave.bench.chaos;

import io.cleave.bench.home.HomeSpec;
import io.cleave.bench.tpcc.schema.TpccSchema;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What the soak home's config says about placement (the CHAOS layout of the bench's configs):
 * the range keyspaces' configured ranges and the configured table rules. The shard map overrides
 * both once moves split ranges or shard-table set rules.
 */
public record ChaosLayout(int shards, int warehouses) {

    public Map<String, List<long[]>> configuredRanges() {
        Map<String, List<long[]>> out = new HashMap<>();
        List<long[]> branches = new ArrayList<>();
        List<long[]> warehouseRanges = new ArrayList<>();
        for (int s = 0; s < shards; s++) {
            boolean last = s == shards - 1;
            branches.add(new long[] {HomeSpec.firstBranch(s), last ? Long.MAX_VALUE : HomeSpec.firstBranch(s + 1) - 1});
            warehouseRanges.add(new long[] {(long) s * warehouses / shards + 1,
                last ? Long.MAX_VALUE : (long) (s + 1) * warehouses / shards});
        }
        out.put("branch", branches);
        if (warehouses > 0) {
            out.put("warehouse", warehouseRanges);
        }
        return out;
    }

    public Map<String, TableRule> configuredRules() {
        Map<String, TableRule> out = new HashMap<>();
        out.put("accounts", new TableRule.Sharded("branch", "branch"));
        out.put("entries", new TableRule.Sharded("branch", "branch"));
        out.put(KvTables.HASHED, new TableRule.Sharded(KvTables.KEYSPACE, "k"));
        if (warehouses > 0) {
            TpccSchema.WAREHOUSE_COLUMNS.forEach((table, column) -> out.put(table, new TableRule.Sharded("warehouse", column)));
            out.put("item", new TableRule.Reference());
        }
        return out;
    }
}
