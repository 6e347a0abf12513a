package io.cleave.manager.backup;

import java.util.List;

/**
 * What a location holds: its backups (complete ones first in time order, each with its cut), and
 * the range of time a restore can reach: from the first complete backup's cut to the last point it
 * reaches (a backup's cut, or the last recorded cut a backup reaches by replaying archived binlogs),
 * and {@code reachableCuts}: each backup's stretch of recorded cuts (see {@link PointInTimeBase}).
 */
public record BackupsReport(String location, List<Entry> backups, long cuts, Long firstCut, Long lastCut,
                            String restorableFrom, String restorableTo, List<String> reachableCuts) {

    public BackupsReport {
        reachableCuts = reachableCuts == null ? List.of() : List.copyOf(reachableCuts);
    }

    /** One backup; {@code complete} false for one that never wrote its manifest (it failed or its daemon died). */
    public record Entry(String id, boolean complete, String engine, String cutAt, int shards, long rows, long storedBytes,
                       long snapshotMillis) {
    }
}
