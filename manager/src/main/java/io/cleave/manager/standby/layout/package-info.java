/**
 * The routing state a standby needs to serve as the primary did: every shard map version (bucket
 * assignments, split ranges, ghosts, table rules, attached servers) a standby pair's primary publishes
 * is written in the same step into {@code cleave.shard_maps} on its default shard ({@link MapReplication}),
 * which semi-sync replication acknowledges from the standby before the version is published; a promotion
 * installs the newest version its replicas hold ({@link MapInstall}) before its proxy starts. A scale's
 * shards come and go on the standby too (its replicas made by {@code ShardFollower}, let go by
 * {@link ReplicaRetirement}); an import, which a standby cannot follow, is refused while one is attached
 * ({@link LayoutGuard}).
 * Global unique keys' lookups, sequences and commit decisions live in tables of Cleave's schema already,
 * so they replicate with the rows.
 */
package io.cleave.manager.standby.layout;
