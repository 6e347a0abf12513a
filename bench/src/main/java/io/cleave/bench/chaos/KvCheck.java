package io.cleave.bench.chaos;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The upserted tables read from every shard directly: each key on the shard its table's rule puts
 * it (every shard for a reference table, all copies alike), and holding the value its writer was
 * last told is stored, or one it wrote afterwards without an answer.
 */
final class KvCheck {
    private final KvTables tables;
    private final UpsertLedger ledger;

    KvCheck(KvTables tables, UpsertLedger ledger) {
        this.tables = tables;
        this.ledger = ledger;
    }

    /** Per table: its rule, and per key the copies on shards that own it, as [shard, value]. */
    record KvRows(Map<String, TableRule> rules, Map<String, Map<Long, List<long[]>>> copies, int shardCount,
                  List<String> misplaced, long ghosts) {
    }

    List<CheckResult> check(ShardMapView map, ShardAccess shards) throws SQLException {
        return judge(read(map, shards));
    }

    KvRows read(ShardMapView map, ShardAccess shards) throws SQLException {
        Map<String, TableRule> rules = new LinkedHashMap<>();
        Map<String, Map<Long, List<long[]>>> copies = new HashMap<>();
        List<String> misplaced = new ArrayList<>();
        long ghosts = 0;
        for (String table : tables.tables()) {
            TableRule rule = map.rule(table);
            rules.put(table, rule);
            Map<Long, List<long[]>> byKey = copies.computeIfAbsent(table, t -> new HashMap<>());
            for (int s = 0; s < map.shardCount(); s++) {
                try (Connection c = shards.open(s, Bank.DATABASE); Statement st = c.createStatement();
                     ResultSet rs = st.executeQuery("SELECT k, v FROM " + table)) {
                    while (rs.next()) {
                        long k = rs.getLong(1);
                        switch (map.where(table, k, s)) {
                            case OWNER -> byKey.computeIfAbsent(k, x -> new ArrayList<>()).add(new long[] {s, rs.getLong(2)});
                            case GHOST -> ghosts++;
                            case MISPLACED -> misplaced.add(table + " key " + k + " on shard " + s + ", which its rule ("
                                + describe(rule) + ") does not put there");
                        }
                    }
                }
            }
        }
        return new KvRows(rules, copies, map.shardCount(), misplaced, ghosts);
    }

    /** Every key of every table on as many shards as its rule says, holding a value its writer's ledger allows. */
    List<CheckResult> judge(KvRows rows) {
        List<String> placement = new ArrayList<>(rows.misplaced());
        List<String> values = new ArrayList<>();
        long found = 0;
        List<String> rules = new ArrayList<>();
        for (Map.Entry<String, TableRule> t : rows.rules().entrySet()) {
            String table = t.getKey();
            TableRule rule = t.getValue();
            rules.add(table + " " + describe(rule));
            int expectedCopies = rule instanceof TableRule.Reference ? rows.shardCount() : 1;
            Map<Long, List<long[]>> copies = rows.copies().getOrDefault(table, Map.of());
            for (long k = 1; k <= tables.keys(table); k++) {
                List<long[]> on = copies.getOrDefault(k, List.of());
                found += on.size();
                if (on.size() != expectedCopies) {
                    placement.add(table + " key " + k + " is on " + on.size() + " shard(s) " + shardsOf(on)
                        + ", not " + expectedCopies + " (" + describe(rule) + ")");
                }
                if (on.stream().mapToLong(c -> c[1]).distinct().count() > 1) {
                    values.add(table + " key " + k + " differs between its copies: " + on.stream()
                        .map(c -> "shard " + c[0] + " holds " + c[1]).toList());
                }
                UpsertLedger.Expected expected = ledger.expected(table, k);
                for (long[] copy : on) {
                    if (!expected.allows(copy[1])) {
                        values.add(String.format(Locale.ROOT, "%s key %d on shard %d holds %d; its writer was told %d is"
                                + " stored (at %.1f s)%s", table, k, copy[0], copy[1], expected.acknowledged(),
                            expected.acknowledgedAtMillis() / 1000.0,
                            expected.unknown().isEmpty() ? "" : ", or one of " + expected.unknown() + " without answer"));
                    }
                }
            }
        }
        return List.of(
            CheckResult.of("upsert placement", String.format(Locale.ROOT, "%,d rows where their rules put them: %s"
                + " (%,d ghost rows left out)", found, String.join(", ", rules), rows.ghosts()), placement),
            CheckResult.of("upsert values", String.format(Locale.ROOT, "every key holds what its writer was last told"
                + " (%,d acknowledged writes, %,d without answer)", ledger.acknowledgedCount(), ledger.unknownCount()),
                values));
    }

    private static List<Long> shardsOf(List<long[]> copies) {
        return copies.stream().map(c -> c[0]).toList();
    }

    static String describe(TableRule rule) {
        if (rule instanceof TableRule.Sharded s) {
            return "sharded by " + s.column() + " on " + s.keyspace();
        }
        return rule instanceof TableRule.Unsharded u ? "on shard " + u.shard() : "reference";
    }
}
