package io.cleave.manager.backup;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The backup a restore to a recorded cut starts from: backups and cuts of two shards, each with
 * positions in one binlog file that grow with time, so only the map version and a move under way
 * tell them apart.
 */
class PointInTimeBaseTest {

    /** Cuts 1-9 at t = 10 * id; the map went from version 5 to 6 (a move began) after cut 3, to 8 (it ended) after cut 6. */
    private static final List<CutRecord> CUTS = cuts();
    /** No shard map stored in the location: only cuts under a backup's own map version are reached. */
    private static final Set<Long> NONE = Set.of();

    @Test
    void theNewestBackupUnderTheCutsMapWithNoMoveUnderWayIsTheBase() {
        List<PointInTimeBase.Candidate> backups = List.of(backup("a", 5, 5, null), backup("b", 25, 5, null),
                backup("c", 75, 8, null));
        assertThat(PointInTimeBase.choose(backups, CUTS, CUTS.get(2), NONE)).isEqualTo("b");
        assertThat(PointInTimeBase.choose(backups, CUTS, CUTS.get(0), NONE)).isEqualTo("a");
        assertThat(PointInTimeBase.choose(backups, CUTS, CUTS.get(8), NONE)).isEqualTo("c");
        assertThat(PointInTimeBase.windows(backups, CUTS, NONE)).containsExactly(new PointInTimeBase.Window("a", 1, 3),
                new PointInTimeBase.Window("b", 3, 3), new PointInTimeBase.Window("c", 8, 9));
    }

    @Test
    void aCutAfterAMoveCutOverIsRefusedNamingTheCutsThatCanBeReached() {
        List<PointInTimeBase.Candidate> backups = List.of(backup("a", 5, 5, null), backup("c", 75, 8, null));
        assertThatThrownBy(() -> PointInTimeBase.choose(backups, CUTS, CUTS.get(6), NONE))
                .hasMessageContaining("cut 7 ")
                .hasMessageContaining("every backup before it was taken under another shard map (the newest, a,"
                        + " under version 5), and the location holds no shard map of version 8")
                .hasMessageContaining("Restorable: cuts 1-3 (from backup a), cuts 8-9 (from backup c)");
    }

    /** A backup taken while a move copies, and a cut under the same map version: the replay would bring the move's copy. */
    @Test
    void aBackupTakenWhileAMoveWasUnderWayIsNoBaseEvenUnderTheSameMapVersion() {
        List<PointInTimeBase.Candidate> backups = List.of(backup("a", 5, 5, null),
                backup("m", 45, 6, "move 3 was copying or cleaning up"));
        assertThatThrownBy(() -> PointInTimeBase.choose(backups, CUTS, CUTS.get(4), NONE))
                .hasMessageContaining("cut 5 ")
                .hasMessageContaining("taken while a move was under way (m: move 3 was copying or cleaning up)")
                .hasMessageContaining("Restorable: cuts 1-3 (from backup a)");
        assertThat(PointInTimeBase.windows(backups, CUTS, NONE)).containsExactly(new PointInTimeBase.Window("a", 1, 3));
    }

    /** With the maps stored, a backup before a move reaches the cuts during and after it; a map not stored breaks the stretch. */
    @Test
    void aBackupWithNoMoveUnderWayReachesCutsUnderLaterMapsTheLocationHolds() {
        List<PointInTimeBase.Candidate> backups = List.of(backup("a", 5, 5, null),
                backup("m", 45, 6, "move 3 was copying or cleaning up"));
        assertThat(PointInTimeBase.choose(backups, CUTS, CUTS.get(4), Set.of(5L, 6L, 8L))).isEqualTo("a");
        assertThat(PointInTimeBase.choose(backups, CUTS, CUTS.get(8), Set.of(5L, 6L, 8L))).isEqualTo("a");
        assertThat(PointInTimeBase.windows(backups, CUTS, Set.of(5L, 6L, 8L)))
                .containsExactly(new PointInTimeBase.Window("a", 1, 9));
        assertThat(PointInTimeBase.windows(backups, CUTS, Set.of(5L, 8L)))
                .containsExactly(new PointInTimeBase.Window("a", 1, 3), new PointInTimeBase.Window("a", 7, 9));
        assertThatThrownBy(() -> PointInTimeBase.choose(backups, CUTS, CUTS.get(4), Set.of(5L, 8L)))
                .hasMessageContaining("taken while a move was under way (m: move 3")
                .hasMessageContaining("Restorable: cuts 1-3 (from backup a), cuts 7-9 (from backup a)");
    }

    /** Map 6 is stored, but an import was under way in it: its cuts are refused saying so and what to restore. */
    @Test
    void aCutTakenWhileAnImportWasUnderWayIsRefusedSayingSo() {
        List<PointInTimeBase.Candidate> backups = List.of(backup("a", 5, 5, null));
        java.util.Map<Long, String> importing = java.util.Map.of(6L, "an import was under way (mysql://app@db1:3306/shop"
                + " attached)");
        assertThatThrownBy(() -> PointInTimeBase.choose(backups, CUTS, CUTS.get(4), Set.of(5L, 8L), importing))
                .hasMessageContaining("cut 5 ")
                .hasMessageContaining("an import was under way (mysql://app@db1:3306/shop attached) at that cut: clients"
                        + " read the imported tables on its source, whose rows no backup or archived binlog here holds")
                .hasMessageContaining("Restore a cut recorded before it began or after it ended")
                .hasMessageContaining("Restorable: cuts 1-3 (from backup a), cuts 7-9 (from backup a)");
        assertThat(PointInTimeBase.choose(backups, CUTS, CUTS.get(7), Set.of(5L, 8L), importing))
                .as("a cut after the import").isEqualTo("a");
    }

    @Test
    void aCutBeforeEveryBackupOrOfAnotherShardCountIsRefused() {
        assertThatThrownBy(() -> PointInTimeBase.choose(List.of(backup("b", 25, 5, null)), CUTS, CUTS.get(0), NONE))
                .hasMessageContaining("no complete backup with its 2 shards was taken before it")
                .hasMessageContaining("Restorable: cut 3 (from backup b)");
        PointInTimeBase.Candidate threeShards = new PointInTimeBase.Candidate("t", 5, 3, 5, null,
                List.of(position(0, 5), position(1, 5), position(2, 5)));
        assertThatThrownBy(() -> PointInTimeBase.choose(List.of(threeShards), CUTS, CUTS.get(1), NONE))
                .hasMessageContaining("no complete backup with its 2 shards")
                .hasMessageContaining("No recorded cut can be reached");
    }

    private static List<CutRecord> cuts() {
        List<CutRecord> out = new ArrayList<>();
        for (int id = 1; id <= 9; id++) {
            long version = id <= 3 ? 5 : id <= 6 ? 6 : 8;
            out.add(new CutRecord(id, 10L * id, version, List.of(position(0, 10L * id), position(1, 10L * id))));
        }
        return out;
    }

    private static PointInTimeBase.Candidate backup(String id, long at, long version, String move) {
        return new PointInTimeBase.Candidate(id, at, 2, version, move, List.of(position(0, at), position(1, at)));
    }

    private static BackupManifest.ShardPosition position(int shard, long at) {
        return new BackupManifest.ShardPosition(shard, "bin.000001", at, null);
    }
}
