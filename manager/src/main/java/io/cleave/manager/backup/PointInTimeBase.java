package io.cleave.manager.backup;

import io.cleave.manager.home.ShardMapStore;
import io.cleave.router.shardmap.ShardMap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Which backup a restore to a recorded cut starts from, or why none can. The archived binlogs are
 * replayed into each restored shard as that shard wrote them, so they put rows where the shards had
 * them at the cut, and the restored home must route by the map of that cut. A backup is a base for
 * a cut when it was taken before the cut with the same shard count, with no move under way at its
 * own cut (a move copies its rows onto the target shard before the map places them there: ghosts,
 * left out of the backup, which the replay would then update or delete), and either under the same
 * shard map version or with the cut's map stored in the location ({@code routable}: the archiver
 * stores each map it records cuts under; moves that cut over in between are then replayed as they
 * ran, and the rows a move under way at the cut has copied but not yet routed, keys or whole tables,
 * are removed by the restore). Anything else is refused, naming the cuts that can be reached; a wrong restore is the
 * worst outcome. {@code cleave backups} lists the same reach.
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

        boolean baseFor(CutRecord cut, Set<Long> routable) {
            return moveUnderWay == null && (mapVersion == cut.mapVersion() || routable.contains(cut.mapVersion()))
                    && before(cut);
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

    /**
     * The newest backup {@code target} is reached from; refused with the reason and the reachable cuts
     * when none. {@code routable}: the map versions stored in the location that a restore can route by.
     */
    public static String choose(List<Candidate> backups, List<CutRecord> cuts, CutRecord target, Set<Long> routable) {
        return choose(backups, cuts, target, routable, Map.of());
    }

    /**
     * As {@link #choose(List, List, CutRecord, Set)}; {@code unroutable}: why each map version stored in
     * the location cannot route a restored home (an import under way in it), said when
     * the target's map is one of them.
     */
    public static String choose(List<Candidate> backups, List<CutRecord> cuts, CutRecord target, Set<Long> routable,
                                Map<Long, String> unroutable) {
        Candidate best = null;
        for (Candidate b : backups) {
            if (b.baseFor(target, routable) && (best == null || b.cutMillis() >= best.cutMillis())) {
                best = b;
            }
        }
        if (best != null) {
            return best.id();
        }
        List<Window> windows = windows(backups, cuts, routable);
        throw new IllegalArgumentException("cut " + target.id() + " (at " + Instant.ofEpochMilli(target.millis())
                + ", shard map version " + target.mapVersion() + ") cannot be restored: " + why(backups, target, unroutable)
                + ". " + (windows.isEmpty() ? "No recorded cut can be reached from the backups there"
                : "Restorable: " + String.join(", ", windows.stream().map(Window::toString).toList()))
                + "; each backup's own cut can be restored too");
    }

    /** Every unbroken stretch of recorded cuts each backup reaches, backup by backup in the given order. */
    public static List<Window> windows(List<Candidate> backups, List<CutRecord> cuts, Set<Long> routable) {
        List<Window> out = new ArrayList<>();
        for (Candidate b : backups) {
            CutRecord first = null;
            CutRecord last = null;
            for (CutRecord c : cuts) {
                if (b.baseFor(c, routable)) {
                    first = first == null ? c : first;
                    last = c;
                } else if (first != null) {
                    out.add(new Window(b.id(), first.id(), last.id()));
                    first = null;
                }
            }
            if (first != null) {
                out.add(new Window(b.id(), first.id(), last.id()));
            }
        }
        return out;
    }

    /** Why no backup is a base for {@code target}, from the one that came closest. */
    private static String why(List<Candidate> backups, CutRecord target, Map<Long, String> unroutable) {
        List<Candidate> before = backups.stream().filter(b -> b.before(target)).toList();
        String underWay = unroutable.get(target.mapVersion());
        if (underWay != null && !before.isEmpty()) {
            return underWay + " at that cut: clients read the imported tables on its source, whose rows no backup"
                    + " or archived binlog here holds (the shards had a partial copy only), so a restored home could not"
                    + " hold what they saw. Restore a cut recorded before it began or after it ended";
        }
        if (before.isEmpty()) {
            return "no complete backup with its " + target.shards().size() + " shards was taken before it (a point"
                    + " in time is reached from a backup before it, by replaying the archived binlogs)";
        }
        List<Candidate> sameMap = before.stream().filter(b -> b.mapVersion() == target.mapVersion()).toList();
        if (sameMap.isEmpty()) {
            Candidate last = before.get(before.size() - 1);
            return "every backup before it was taken under another shard map (the newest, " + last.id() + ", under"
                    + " version " + last.mapVersion() + "), and the location holds no shard map of version "
                    + target.mapVersion() + " to route the replayed rows by (it was recorded by a daemon that did not"
                    + " store maps, or an import was under way in it); take a backup after such a change"
                    + " to reach later points";
        }
        Candidate last = sameMap.get(sameMap.size() - 1);
        return "the backups before it under its shard map were taken while a move was under way (" + last.id() + ": "
                + last.moveUnderWay() + "), and replaying the move's copy would leave rows on a shard the restored map"
                + " does not route them to; take a backup once the move is done";
    }
}
