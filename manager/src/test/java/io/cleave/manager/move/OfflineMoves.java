package io.cleave.manager.move;

import io.cleave.manager.config.CleaveConfig;
import io.cleave.manager.config.ConfigLoader;
import io.cleave.manager.home.ShardMapStore;
import io.cleave.manager.unique.KeyRegistry;
import io.cleave.router.shardmap.ShardMapHolder;

import java.nio.file.Path;
import java.util.List;

/** A move service over the sample TPC-C config's map in {@code dir}, with no shard reachable: what is refused before planning. */
final class OfflineMoves {

    private OfflineMoves() {
    }

    static MapUpdates maps(Path dir) {
        CleaveConfig tpcc = ConfigLoader.load(Path.of("..", "config", "tpcc.yaml"));
        ShardMapStore store = new ShardMapStore(dir.resolve("shard-map.json"));
        return new MapUpdates(new ShardMapHolder(store.loadOrCreate(tpcc.sharding(), tpcc.source())), store,
                tpcc.sharding().topology());
    }

    static MoveService service(Path dir, MapUpdates maps) {
        return new MoveService(new MoveEnvironment(new ShardLinks(List.of()), maps, () -> null, new MoveJournal(dir),
                MoveSettings.fromSystemProperties(), MoveMetrics.none(), MoveHooks.NONE, KeyRegistry.NONE));
    }
}
