package io.cleave.manager.backup;

import io.cleave.manager.backup.store.BackupStore;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.router.shardmap.ShardMap;

import java.io.IOException;
import java.nio.file.NoSuchFileException;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Reads what a backup location holds: backups and their manifests, recorded cuts and the shard maps they were taken under. */
public final class BackupCatalog {

    public static final String CUTS = "cuts/";
    public static final String MAPS = "maps/";

    private final BackupStore store;

    public BackupCatalog(BackupStore store) {
        this.store = store;
    }

    public BackupStore store() {
        return store;
    }

    /** The manifest of a complete backup; an error naming the id when it is missing or incomplete. */
    public BackupManifest manifest(String id) throws IOException {
        try {
            return BackupJson.read(store.get(BackupKeys.manifest(id)), BackupManifest.class);
        } catch (NoSuchFileException e) {
            boolean started = !store.list(BackupKeys.backup(id)).isEmpty();
            throw new NoSuchFileException(store.describe(), null, started ? "backup " + id + " is incomplete (it failed or"
                    + " its daemon died before it finished): it cannot be restored" : "there is no backup " + id);
        }
    }

    /** Every backup id with whether it is complete, oldest first. */
    public Map<String, Boolean> backups() throws IOException {
        Map<String, Boolean> out = new LinkedHashMap<>();
        for (String key : store.list(BackupKeys.BACKUPS)) {
            String id = BackupKeys.idOf(key);
            if (id != null) {
                boolean manifest = key.endsWith("/" + BackupKeys.MANIFEST);
                out.merge(id, manifest, Boolean::logicalOr);
            }
        }
        return out;
    }

    /** Every recorded cut, oldest first. */
    public List<CutRecord> cuts() throws IOException {
        List<CutRecord> out = new ArrayList<>();
        for (String key : store.list(CUTS)) {
            if (key.endsWith(".json")) {
                out.add(BackupJson.read(store.get(key), CutRecord.class));
            }
        }
        out.sort(java.util.Comparator.comparingLong(CutRecord::id));
        return out;
    }

    /** The versions of the shard maps the archiver stored, each under {@link #mapKey}. */
    public java.util.Set<Long> mapVersions() throws IOException {
        java.util.Set<Long> out = new java.util.TreeSet<>();
        for (String key : store.list(MAPS)) {
            if (key.endsWith(".json")) {
                out.add(Long.parseLong(key.substring(MAPS.length(), key.length() - ".json".length())));
            }
        }
        return out;
    }

    /** The shard map of {@code version} as the archiver stored it (the JSON {@code state/shard-map.json} holds). */
    public byte[] map(long version) throws IOException {
        return store.get(mapKey(version));
    }

    /**
     * The stored map versions a restore can route a home by: those with no import under way (a move
     * under way is fine: the rows it copied but did not route are known and removed, see
     * {@code restore.UnfinishedTableMoves}).
     */
    public java.util.Set<Long> routableMaps() throws IOException {
        java.util.Set<Long> out = new java.util.TreeSet<>(mapVersions());
        out.removeAll(unroutableMaps().keySet());
        return out;
    }

    /**
     * The stored map versions a restore cannot route a home by, each with what was under way in it: an
     * import, whose tables clients read on its source (which no backup or archive here holds).
     */
    public java.util.Map<Long, String> unroutableMaps() throws IOException {
        java.util.Map<Long, String> out = new java.util.TreeMap<>();
        for (long v : mapVersions()) {
            ShardMap m = ShardMapStore.parse(map(v));
            if (!m.attached().isEmpty()) {
                out.put(v, "an import was under way (" + m.attached().get(0).label() + " attached)");
            }
        }
        return out;
    }

    public static String mapKey(long version) {
        return MAPS + String.format("%016d", version) + ".json";
    }

    public static String cutKey(long id) {
        return CUTS + String.format("%016d", id) + ".json";
    }

    public BackupsReport report() throws IOException {
        List<BackupsReport.Entry> entries = new ArrayList<>();
        List<PointInTimeBase.Candidate> complete = new ArrayList<>();
        Long firstComplete = null;
        Long lastComplete = null;
        for (Map.Entry<String, Boolean> e : backups().entrySet()) {
            if (!e.getValue()) {
                entries.add(new BackupsReport.Entry(e.getKey(), false, null, null, 0, 0, 0, 0));
                continue;
            }
            BackupManifest m = manifest(e.getKey());
            entries.add(new BackupsReport.Entry(m.id(), true, m.engine(), Instant.ofEpochMilli(m.cutMillis()).toString(),
                    m.shardCount(), m.rows(), m.storedBytes(), m.snapshotMillis()));
            complete.add(PointInTimeBase.Candidate.of(m));
            firstComplete = firstComplete == null ? m.cutMillis() : Math.min(firstComplete, m.cutMillis());
            lastComplete = lastComplete == null ? m.cutMillis() : Math.max(lastComplete, m.cutMillis());
        }
        complete.sort(java.util.Comparator.comparingLong(PointInTimeBase.Candidate::cutMillis));
        List<CutRecord> cuts = cuts();
        Long firstCut = cuts.isEmpty() ? null : cuts.get(0).id();
        Long lastCut = cuts.isEmpty() ? null : cuts.get(cuts.size() - 1).id();
        Long to = lastComplete;
        List<String> reachable = new ArrayList<>();
        for (PointInTimeBase.Window w : PointInTimeBase.windows(complete, cuts, routableMaps())) {
            reachable.add(w.toString());
            for (CutRecord c : cuts) {
                if (c.id() == w.last()) {
                    to = Math.max(to, c.millis());
                }
            }
        }
        return new BackupsReport(store.describe(), entries, cuts.size(), firstCut, lastCut,
                firstComplete == null ? null : Instant.ofEpochMilli(firstComplete).toString(),
                to == null ? null : Instant.ofEpochMilli(to).toString(), reachable);
    }
}
