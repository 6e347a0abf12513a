package io.cleave.manager.backup;

import io.cleave.manager.instance.ServerBinary;
import io.cleave.manager.move.ShardLinks;
import io.cleave.proxy.cut.CutWindows;
import io.cleave.router.shardmap.ShardMapHolder;
import io.cleave.router.topology.Topology;

import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * What a backup reads from the running home: connections to the shards, the shard map and the
 * configured topology (the routing), where the proxy orders cuts against commits (null when no
 * proxy runs: then no client commits either, and the snapshots need no window), the config file, and
 * the shards' server binary (whose own mariadb-backup the physical engine runs; null: logical only).
 */
public record BackupSources(ShardLinks links, ShardMapHolder maps, Topology configured, Supplier<CutWindows> cuts,
                            Path configFile, ServerBinary server) {
}
