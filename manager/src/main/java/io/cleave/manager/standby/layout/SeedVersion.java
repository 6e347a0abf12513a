package io.cleave.manager.standby.layout;

import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.router.shardmap.ShardMap;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * A seeded standby's shard map carries the primary's version at the cut. A restore numbers the map it
 * writes one past the backup's (its own new version); a standby instead counts the primary's versions,
 * so that the first version the primary writes after the cut is newer than the seed's and a promotion
 * installs it ({@link MapInstall}). The content is the backed-up map as the restore placed the rows by
 * it (a standby attaches only while no move is under way, so nothing is left out of it).
 */
public final class SeedVersion {

    private SeedVersion() {
    }

    /**
     * Fails the seed when its cut caught a move under way (one started after the attach, which refuses
     * them): the restore leaves the move's copies and old rows out, and the move's later writes to them
     * would stop the replicas.
     */
    public static void refuseMoveAtCut(String backedUpJson) throws IOException {
        ShardMap atCut = ShardMapStore.parse(backedUpJson.getBytes(StandardCharsets.UTF_8));
        java.util.Set<Long> moves = LayoutGuard.movesUnderWay(atCut);
        if (!moves.isEmpty()) {
            throw new IllegalStateException("the seed's cut caught moves " + moves + " under way on the primary: run"
                    + " 'cleave standby' again once they are done ('cleave moves' on the primary)");
        }
    }

    /** Numbers the map of the seeded {@code home} (config {@code config}) as the backup's, {@code backedUpJson}. */
    public static void keepPrimarys(CleaveHome home, Path config, String backedUpJson) throws IOException {
        long primarys = ShardMapStore.parse(backedUpJson.getBytes(StandardCharsets.UTF_8)).version();
        ShardMapStore store = new ShardMapStore(home.shardMapFile());
        ShardMap restored = store.read();
        if (restored.version() != primarys) {
            store.save(restored.asVersion(primarys), ConfigLoader.load(config).sharding().topology());
        }
    }
}
