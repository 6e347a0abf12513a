package io.cleave.manager.backup;

import io.cleave.manager.home.ShardMapStore;
import io.cleave.router.shardmap.ShardMap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Which backup a restore to a recorded cut starts from, or why none can. The archived binlogs are
 * replayed into each restored shard as that shard wrote them, so they put rows where the shards had
 * them, and the restored home must route by the map those rows were placed by. A backup is a base
 * for a cut when it was taken before the cut, with the same shard count and shard map version (so
 * no move, scale or shard-table cut over in between), and with no move under way at its own cut: a
 * move copies its rows onto the target shard before the map places them there (ghosts, left out of
 * the backup), and replaying that copy would leave them on a shard the restored map does not route
 * them to, counted twice by a read of every shard. Anything else is refused, naming the cuts that
 * can be reached; a wrong restore is the worst outcome. {@code cleave backups} lists the same reach.
 */
public final class PointInTimeBase {

    /** What the choice needs of a complete backup. */
    public record Candidate(String id, long cutMillis, int shards, long mapVersion, String moveUnderWay,
                     List<BackupManifest.ShardPosition> positions) {

        public static Candidate of(BackupManifest m) throws IOException {
            ShardMap map = ShardMapStore.parse(m.shardMap().getBytes(StandardCharsets.UTF_8));
            String move = !map.ghosts().isEmpty() ? "move " + map.ghosts().get(0).moveId() + " was copying or cleaning up"
                    : !map.movingTables().isEmpty() ? "move " + map.movingTables().values().iterator().next()
                    + " was moving tables" : null;
            return new Candidate(m.id(), m.cutMillis(), m.shardCount(), map.version(), move, m.shards());
        }

        /** Whether every shard's position at this backup's cut is at or before its position at {@code cut}. */
        boolean before(CutRecord cut) {
            if (cutMillis > cut.millis() || shards != cut.shards().size()) {
                return false;
            }
            for (BackupManifest.ShardPosition p : positions) {
                BackupManifest.ShardPosition t = cut.shards().get(p.shard());
                if (p.file() == null || p.file().compareTo(t.file()) > 0
                        || (p.file().equals(t.file()) && p.position() > t.position())) {
                    return false;
                }
            }
            return true;
        }

        boolean baseFor(CutRecord cut) {
            return moveUnderWay == null && mapVersion == cut.mapVersion() && before(cut);
        }
    }

    /** The recorded cuts {@code first} to {@code last} a restore reaches from {@code backup}. */
    public record Window(String backup, long first, long last) {
        @Override
        public String toString() {
            return (first == last ? "cut " + first : "cuts " + first + "-" + last) + " (from backup " + backup + ")";
        }
    }

    private PointInTimeBase() {
    }

    /** The newest backup {@code target} is reached from; refused with the reason and the reachable cuts when none. */
    public static String choose(List<Candidate> backups, List<CutRecord> cuts, CutRecord target) {
        Candidate best = null;
        for (Candidate b : backups) {
            if (b.baseFor(target) && (best == null || b.cutMillis() >= best.cutMillis())) {
                best = b;
            }
        }
        if (best != null) {
            return best.id();
        }
        List<Window> windows = windows(backups, cuts);
        throw new IllegalArgumentException("cut " + target.id() + " (at " + Instant.ofEpochMilli(target.millis())
                + ", shard map version " + target.mapVersion() + ") cannot be restored: " + why(backups, target)
                + ". " + (windows.isEmpty() ? "No recorded cut can be reached from the backups there"
                : "Restorable: " + String.join(", ", windows.stream().map(Window::toString).toList()))
                + "; each backup's own cut can be restored too");
    }

    /** Every stretch of recorded cuts some backup reaches, one per backup, newest backup last. */
    public static List<Window> windows(List<Candidate> backups, List<CutRecord> cuts) {
        List<Window> out = new ArrayList<>();
        for (Candidate b : backups) {
            Optional<CutRecord> first = cuts.stream().filter(b::baseFor).findFirst();
            if (first.isEmpty()) {
                continue;
            }
            long last = first.get().id();
            // Cuts are in order and map versions only grow: a backup reaches one unbroken stretch.
            for (CutRecord c : cuts) {
                if (c.id() > last && b.baseFor(c)) {
                    last = c.id();
                }
            }
            out.add(new Window(b.id(), first.get().id(), last));
        }
        return out;
    }

    /** Why no backup is a base for {@code target}, from the one that came closest. */
    private static String why(List<Candidate> backups, CutRecord target) {
        List<Candidate> before = backups.stream().filter(b -> b.before(target)).toList();
        if (before.isEmpty()) {
            return "no complete backup with its " + target.shards().size() + " shards was taken before it (a point"
                    + " in time is reached from a backup before it, by replaying the archived binlogs)";
        }
        List<Candidate> sameMap = before.stream().filter(b -> b.mapVersion() == target.mapVersion()).toList();
        if (sameMap.isEmpty()) {
            Candidate last = before.get(before.size() - 1);
            return "every backup before it was taken under another shard map (the newest, " + last.id() + ", under"
                    + " version " + last.mapVersion() + "): a move, scale or shard-table cut over in between, and the"
                    + " replayed binlogs would leave rows on shards the restored map does not route them to; take a"
                    + " backup after such a change to reach later points";
        }
        Candidate last = sameMap.get(sameMap.size() - 1);
        return "the backups before it under its shard map were taken while a move was under way (" + last.id() + ": "
                + last.moveUnderWay() + "), and replaying the move's copy would leave rows on a shard the restored map"
                + " does not route them to; take a backup once the move is done";
    }
}
