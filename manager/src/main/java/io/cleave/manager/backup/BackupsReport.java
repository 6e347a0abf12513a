package io.cleave.manager.backup;

import java.util.List;

/**
 * What a location holds: its backups (complete ones first in time order, each with its cut), and
 * the range of time a restore can reach: from the first complete backup's cut to the last cut
 * recorded while binlogs were archived (or the last backup's cut without archiving).
 */
public record BackupsReport(String location, List<Entry> backups, long cuts, Long firstCut, Long lastCut,
                            String restorableFrom, String restorableTo) {

    /** One backup; {@code complete} false for one that never wrote its manifest (it failed or its daemon died). */
    public record Entry(String id, boolean complete, String engine, String cutAt, int shards, long rows, long storedBytes,
                       long snapshotMillis) {
    }
}
