package io.cleave.manager.move;

import io.cleave.manager.unique.KeyRegistry;
import io.cleave.proxy.cutover.CutoverGate;

import java.util.function.Supplier;

/**
 * What a move works with: the shards, the shard map, the proxy's cutover gate (null while the
 * proxy is not running: then no client can be on the moving keys), the journal, settings, metrics,
 * test hooks, and the proxy's registry of global unique keys (told of the keys a move that shards
 * a table completes).
 */
public record MoveEnvironment(ShardLinks shards, MapUpdates maps, Supplier<CutoverGate> gate, MoveJournal journal,
                              MoveSettings settings, MoveMetrics metrics, MoveHooks hooks, KeyRegistry keys) {
}
