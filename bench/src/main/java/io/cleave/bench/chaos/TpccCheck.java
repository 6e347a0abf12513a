package io.cleave.bench.chaos;

import io.cleave.bench.tpcc.TpccScale;
import io.cleave.bench.tpcc.check.ConsistencyCheck;
import io.cleave.bench.tpcc.check.Violation;
import io.cleave.bench.tpcc.schema.TpccSchema;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * TPC-C read from every shard directly: each warehouse's rows of every table on the one shard that
 * owns the warehouse (others only as ghosts of a move), all items on every shard, and consistency
 * conditions 1-4 of each warehouse on its owner.
 */
final class TpccCheck {
    static final String DATABASE = "tpcc";

    private final int warehouses;

    TpccCheck(int warehouses) {
        this.warehouses = warehouses;
    }

    List<CheckResult> check(ShardMapView map, ShardAccess shards) throws SQLException {
        List<String> placement = new ArrayList<>();
        Map<String, Map<Integer, List<Integer>>> owners = new HashMap<>();
        for (int s = 0; s < map.shardCount(); s++) {
            try (Connection c = shards.open(s, DATABASE); Statement st = c.createStatement()) {
                for (Map.Entry<String, String> t : TpccSchema.WAREHOUSE_COLUMNS.entrySet()) {
                    try (ResultSet rs = st.executeQuery("SELECT DISTINCT " + t.getValue() + " FROM " + t.getKey())) {
                        while (rs.next()) {
                            int w = rs.getInt(1);
                            ShardMapView.Where where = map.where(t.getKey(), w, s);
                            if (where == ShardMapView.Where.OWNER) {
                                owners.computeIfAbsent(t.getKey(), x -> new HashMap<>())
                                    .computeIfAbsent(w, x -> new ArrayList<>()).add(s);
                            } else if (where == ShardMapView.Where.MISPLACED) {
                                placement.add(t.getKey() + " rows of warehouse " + w + " on shard " + s + ", owned by shard "
                                    + map.owner("warehouse", w));
                            }
                        }
                    }
                }
                try (ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM item")) {
                    rs.next();
                    if (rs.getLong(1) != TpccScale.ITEMS) {
                        placement.add("shard " + s + " holds " + rs.getLong(1) + " items, not " + TpccScale.ITEMS);
                    }
                }
            }
        }
        List<String> violations = new ArrayList<>();
        for (int w = 1; w <= warehouses; w++) {
            for (String table : TpccSchema.WAREHOUSE_COLUMNS.keySet()) {
                List<Integer> on = owners.getOrDefault(table, Map.of()).getOrDefault(w, List.of());
                if (on.size() != 1) {
                    placement.add(table + " rows of warehouse " + w + " are on shards " + on + " (shard "
                        + map.owner("warehouse", w) + " owns it)");
                }
            }
            int owner = map.owner("warehouse", w);
            for (Violation v : ConsistencyCheck.checkWarehouse(shards.shard(owner, DATABASE), w, owner)) {
                violations.add(v.toString());
            }
        }
        return List.of(
            CheckResult.of("tpcc placement", String.format(Locale.ROOT, "each of %d warehouses' rows in every table on"
                + " the one shard that owns it; %,d items on each of %d shards", warehouses, TpccScale.ITEMS,
                map.shardCount()), placement),
            CheckResult.of("tpcc consistency", "conditions 1-4 hold for every warehouse and district on its owner",
                violations));
    }
}
