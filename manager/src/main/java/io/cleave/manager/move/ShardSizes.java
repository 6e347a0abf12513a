package io.cleave.manager.move;

import io.cleave.router.keyspace.HashShardFunction;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.shardmap.KeySet;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.TableRule;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

/**
 * Measures where the rows are. Fast: the shards' table statistics (information_schema row counts
 * and sizes, the optimizer's estimate for a key range). Exact: COUNT(*) per key range or bucket run.
 * Bytes of a span are its rows times the table's average row size on that shard.
 */
final class ShardSizes {

    private final ShardLinks shards;
    private final MapUpdates maps;

    ShardSizes(ShardLinks shards, MapUpdates maps) {
        this.shards = shards;
        this.maps = maps;
    }

    ShardsReport report(boolean exact, List<MoveRecord> moves) throws SQLException {
        ShardMap map = maps.current();
        List<ShardsReport.ShardSize> perShard = new ArrayList<>();
        for (int s = 0; s < map.shardCount(); s++) {
            try (Connection c = shards.open(s); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COALESCE(SUM(TABLE_ROWS), 0), COALESCE(SUM(DATA_LENGTH"
                         + " + INDEX_LENGTH), 0) FROM information_schema.TABLES WHERE TABLE_TYPE = 'BASE TABLE' AND"
                         + " TABLE_SCHEMA NOT IN ('mysql', 'sys', 'performance_schema', 'information_schema', 'cleave')")) {
                rs.next();
                perShard.add(new ShardsReport.ShardSize(s, rs.getLong(1), rs.getLong(2)));
            } catch (SQLException e) {
                perShard.add(new ShardsReport.ShardSize(s, -1, -1));
            }
        }
        List<ShardsReport.KeyspaceLayout> layouts = new ArrayList<>();
        for (Keyspace ks : maps.topology().keyspaces().values().stream().sorted(Comparator.comparing(Keyspace::name)).toList()) {
            ShardFunction f = map.function(ks.name(), ks.function());
            List<ShardsReport.Span> spans = new ArrayList<>();
            for (Span span : spans(ks.name(), f, map)) {
                long[] size = size(ks, span, exact);
                spans.add(new ShardsReport.Span(span.keys().toString(), span.shard(), size[0], size[1]));
            }
            layouts.add(new ShardsReport.KeyspaceLayout(ks.name(), f.kind(), spans));
        }
        return new ShardsReport(map.version(), exact, perShard, layouts, moves);
    }

    /** A key range or bucket run and its shard. */
    record Span(KeySet keys, int shard) {
        /** Buckets in a bucket run (1 for a key range). */
        long size() {
            return keys instanceof KeySet.Buckets b ? b.to() - b.from() + 1 : 1;
        }
    }

    /** The keyspace's key ranges (in key order) or runs of neighbouring buckets on one shard. */
    static List<Span> spans(String keyspace, ShardFunction f, ShardMap map) {
        List<Span> out = new ArrayList<>();
        int[] owner = map.buckets(keyspace);
        if (f instanceof RangeShardFunction ranges) {
            List<Integer> order = new ArrayList<>();
            for (int i = 0; i < ranges.bucketCount(); i++) {
                order.add(i);
            }
            order.sort(Comparator.comparingLong(i -> ranges.ranges().get(i).from()));
            for (int b : order) {
                KeyRange r = ranges.ranges().get(b);
                out.add(new Span(new KeySet.Keys(r.from(), r.to()), owner[b]));
            }
            return out;
        }
        int start = 0;
        for (int b = 1; b <= owner.length; b++) {
            if (b == owner.length || owner[b] != owner[start]) {
                out.add(new Span(new KeySet.Buckets(start, b - 1), owner[start]));
                start = b;
            }
        }
        return out;
    }

    /** Rows and bytes of a span over every table of the keyspace. */
    long[] size(Keyspace ks, Span span, boolean exact) throws SQLException {
        long rows = 0;
        long bytes = 0;
        try (Connection c = shards.open(span.shard())) {
            for (TableRule rule : maps.routing().tables().values()) {
                if (!(rule instanceof TableRule.Sharded s) || !s.keyspace().equals(ks.name())) {
                    continue;
                }
                for (String[] t : tables(c, s.table())) {
                    String qualified = Sql.quote(t[0]) + "." + Sql.quote(t[1]);
                    String where = Sql.moving(s.column(), span.keys(), ks.function().bucketCount());
                    long n;
                    if (exact) {
                        n = single(c, "SELECT COUNT(*) FROM " + qualified + " WHERE " + where);
                    } else if (ks.function() instanceof HashShardFunction) {
                        // Buckets hold about equal shares of a shard's rows of the keyspace.
                        n = Long.parseLong(t[2]) * span.size() / Math.max(1, bucketsOn(span.shard(), ks.name()));
                    } else {
                        n = estimate(c, "EXPLAIN SELECT * FROM " + qualified + " WHERE " + where);
                    }
                    rows += n;
                    bytes += n * Long.parseLong(t[3]);
                }
            }
        } catch (SQLException e) {
            return new long[] {-1, -1};
        }
        return new long[] {rows, bytes};
    }

    private int bucketsOn(int shard, String keyspace) {
        int n = 0;
        for (int s : maps.current().buckets(keyspace)) {
            n += s == shard ? 1 : 0;
        }
        return n;
    }

    /** Schema, name, row estimate and average row length of each table with that name. */
    private static List<String[]> tables(Connection c, String table) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery("SELECT TABLE_SCHEMA, TABLE_NAME,"
                + " COALESCE(TABLE_ROWS, 0), COALESCE(AVG_ROW_LENGTH, 0) FROM information_schema.TABLES WHERE"
                + " TABLE_TYPE = 'BASE TABLE' AND LOWER(TABLE_NAME) = '" + table.toLowerCase(Locale.ROOT).replace("'", "''")
                + "' AND TABLE_SCHEMA NOT IN ('mysql', 'sys', 'performance_schema', 'information_schema', 'cleave')")) {
            while (rs.next()) {
                out.add(new String[] {rs.getString(1), rs.getString(2), rs.getString(3), rs.getString(4)});
            }
        }
        return out;
    }

    private static long single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    private static long estimate(Connection c, String explain) throws SQLException {
        long rows = 0;
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(explain)) {
            while (rs.next()) {
                rows += rs.getLong("rows");
            }
        }
        return rows;
    }
}
