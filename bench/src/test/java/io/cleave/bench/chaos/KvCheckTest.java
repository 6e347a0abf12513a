package io.cleave.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KvCheckTest {
    /** 8 keys in kv_hashed, 8 in each of the others. */
    private final KvTables tables = new KvTables(8);
    private final UpsertLedger ledger = new UpsertLedger();
    private final Map<String, TableRule> rules = new LinkedHashMap<>();
    private final Map<String, Map<Long, List<long[]>>> copies = new HashMap<>();

    KvCheckTest() {
        for (String t : tables.tables()) {
            rules.put(t, t.equals("kv_u2") ? new TableRule.Reference() : new TableRule.Unsharded(0));
            Map<Long, List<long[]>> byKey = new HashMap<>();
            for (long k = 1; k <= tables.keys(t); k++) {
                byKey.put(k, new ArrayList<>(List.of(new long[] {0, 0})));
                if (t.equals("kv_u2")) {
                    byKey.get(k).add(new long[] {1, 0});
                }
            }
            copies.put(t, byKey);
        }
    }

    private List<CheckResult> judge() {
        return new KvCheck(tables, ledger).judge(new KvCheck.KvRows(rules, copies, 2, List.of(), 0));
    }

    @Test
    void keysHoldingWhatTheirWritersWereToldPass() {
        ledger.acknowledged("kv_hashed", 3, 17, 1000);
        copies.get("kv_hashed").get(3L).get(0)[1] = 17;
        ledger.acknowledged("kv_u1", 4, 5, 1000);
        ledger.unknown("kv_u1", 4, 6);
        copies.get("kv_u1").get(4L).get(0)[1] = 6;
        assertThat(judge()).allMatch(CheckResult::passed);
    }

    @Test
    void aLostWriteAValueNeverWrittenAndAMissingCopyFail() {
        ledger.acknowledged("kv_hashed", 3, 17, 2500);
        copies.get("kv_hashed").get(5L).get(0)[1] = 99;
        copies.get("kv_u2").get(1L).remove(1);
        List<CheckResult> r = judge();
        assertThat(r.get(0).differences()).containsExactly(
            "kv_u2 key 1 is on 1 shard(s) [0], not 2 (reference)");
        assertThat(r.get(1).differences()).containsExactly(
            "kv_hashed key 3 on shard 0 holds 0; its writer was told 17 is stored (at 2.5 s)",
            "kv_hashed key 5 on shard 0 holds 99; its writer was told 0 is stored (at 0.0 s)");
    }

    @Test
    void referenceCopiesThatDifferFailEvenWhenEachIsAllowed() {
        ledger.acknowledged("kv_u2", 6, 3, 1000);
        ledger.unknown("kv_u2", 6, 4);
        copies.get("kv_u2").get(6L).get(0)[1] = 3;
        copies.get("kv_u2").get(6L).get(1)[1] = 4;
        assertThat(judge().get(1).differences()).containsExactly(
            "kv_u2 key 6 differs between its copies: [shard 0 holds 3, shard 1 holds 4]");
    }

    @Test
    void aKeyOnNoShardFails() {
        copies.get("kv_u3").remove(8L);
        assertThat(judge().get(0).differences()).containsExactly("kv_u3 key 8 is on 0 shard(s) [], not 1 (on shard 0)");
    }
}
