package io.cleave.manager.backup.triggers;

import io.cleave.manager.backup.BackupJson;
import io.cleave.manager.backup.BackupManifest;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TriggersAndEventsTest {

    private static TriggerOrEvent on(TriggerOrEvent.Kind kind, Integer... shards) {
        return new TriggerOrEvent(kind, "bank", "t", "auditor@localhost", List.of(shards), "STRICT_TRANS_TABLES",
                kind == TriggerOrEvent.Kind.EVENT ? "SYSTEM" : null, "utf8mb4", "utf8mb4_general_ci", "CREATE ...");
    }

    @Test
    void aTriggerOnEveryShardGoesOnEveryShardOfAnyCount() {
        TriggerOrEvent t = on(TriggerOrEvent.Kind.TRIGGER, 0, 1, 2);
        assertThat(TriggersAndEvents.placement(t, 3, 3, 0)).containsExactly(0, 1, 2);
        assertThat(TriggersAndEvents.placement(t, 3, 2, 0)).containsExactly(0, 1);
        assertThat(TriggersAndEvents.placement(t, 3, 5, 0)).containsExactly(0, 1, 2, 3, 4);
    }

    @Test
    void anEventStaysOnItsShardAndAShardTheHomeLacksBecomesTheDefaultOne() {
        assertThat(TriggersAndEvents.placement(on(TriggerOrEvent.Kind.EVENT, 0), 3, 5, 0)).containsExactly(0);
        assertThat(TriggersAndEvents.placement(on(TriggerOrEvent.Kind.EVENT, 1), 3, 3, 0)).containsExactly(1);
        assertThat(TriggersAndEvents.placement(on(TriggerOrEvent.Kind.EVENT, 2), 3, 2, 0)).containsExactly(0);
        // A home of one shard: the event is on every one of its shards, and stays on one.
        assertThat(TriggersAndEvents.placement(on(TriggerOrEvent.Kind.EVENT, 0), 1, 3, 0)).containsExactly(0, 1, 2);
    }

    @Test
    void utf8TextIsToldInItsOwnSetAndOtherSetsOnlyForAsciiText() {
        assertThat(TriggersAndEvents.sendsAlike("utf8mb3", "SET NEW.a = 'Größe'")).isTrue();
        assertThat(TriggersAndEvents.sendsAlike("latin1", "SET NEW.a = 'x'")).isTrue();
        assertThat(TriggersAndEvents.sendsAlike("latin1", "SET NEW.a = 'Größe'")).isFalse();
    }

    @Test
    void aManifestWrittenBeforeTriggersWereBackedUpReadsWithNone() throws Exception {
        String old = """
                {"format": 1, "id": "b1", "engine": "logical", "startedAt": "", "finishedAt": "", "cutMillis": 5,
                 "shards": [], "shardCount": 2, "serverVersion": "11.4", "shardMap": "{}", "config": "",
                 "accounts": [], "databases": [], "tables": [], "rows": 0, "bytes": 0, "storedBytes": 0,
                 "snapshotMillis": 0, "sequences": []}
                """;
        BackupManifest m = BackupJson.read(old.getBytes(StandardCharsets.UTF_8), BackupManifest.class);
        assertThat(m.triggersAndEvents()).isEmpty();
        assertThat(m.copies()).isEmpty();
        assertThat(m.shardCount()).isEqualTo(2);
    }

    @Test
    void aManifestKeepsEachTriggerAndEventWithItsContext() throws Exception {
        TriggerOrEvent t = on(TriggerOrEvent.Kind.TRIGGER, 0, 1);
        TriggerOrEvent e = on(TriggerOrEvent.Kind.EVENT, 0);
        BackupManifest m = new BackupManifest(BackupManifest.FORMAT, "b", BackupManifest.LOGICAL, "", "", 0, List.of(), 2,
                "11.4", "{}", "", List.of(), List.of(), List.of(), 0, 0, 0, 0, List.of(), List.of(), List.of(t, e));
        BackupManifest read = BackupJson.read(BackupJson.write(m), BackupManifest.class);
        assertThat(read.triggersAndEvents()).containsExactly(t, e);
    }

    @Test
    void theSameDefinitionOnSeveralShardsIsOneEntry() {
        TriggerOrEvent t = on(TriggerOrEvent.Kind.TRIGGER, 0);
        assertThat(t.sameDefinition(on(TriggerOrEvent.Kind.TRIGGER, 1))).isTrue();
        assertThat(t.alsoOn(1).shards()).containsExactly(0, 1);
        TriggerOrEvent otherMode = new TriggerOrEvent(TriggerOrEvent.Kind.TRIGGER, "bank", "t", "auditor@localhost",
                List.of(1), "", null, "utf8mb4", "utf8mb4_general_ci", "CREATE ...");
        assertThat(t.sameDefinition(otherMode)).isFalse();
    }
}
