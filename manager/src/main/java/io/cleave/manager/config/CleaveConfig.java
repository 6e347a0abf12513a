package io.cleave.manager.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * A validated config file. Built only by {@link ConfigLoader}, so every instance passed all checks.
 *
 * @param source        the file it came from (named in later error messages)
 * @param bufferPoolBytes total InnoDB buffer pool, split evenly across the shards
 * @param datadirRoots  directories (one per flash device) the datadirs are spread across; empty
 *                      means {@code <home>/data}
 * @param logDir        a separate directory (device) for redo logs and binlogs
 * @param ioCapacity    innodb_io_capacity of one device, split across the shards sharing it; empty
 *                      ({@code auto}) takes it from each device's class
 * @param redoWriteRate the peak rate (bytes per second) at which all shards together write redo,
 *                      when known: redo logs are sized to hold an hour of it
 * @param cpuSets       how shards are placed on CPUs
 * @param backup        where backups go and whether binlogs are archived for point-in-time recovery
 * @param standby       on a standby's config, the primary it is seeded from ({@code cleave standby})
 * @param coordination  the etcd cluster that holds a standby pair's primary and epoch (automatic failover)
 * @param adminPort     the admin API's port ({@code admin.listen} or {@code admin.port}; 0: any free port)
 * @param listen        the addresses the shards and the admin API listen on, and the one other hosts use
 */
public record CleaveConfig(Path source, int shards, ServerConfig server, long bufferPoolBytes,
                           List<Path> datadirRoots, Optional<Path> logDir, OptionalInt ioCapacity,
                           Optional<Long> redoWriteRate, CpuSets cpuSets,
                           ProxyConfig proxy, int adminPort, ListenAddresses listen, ShardingConfig sharding, BackupConfig backup,
                           Optional<StandbySource> standby, Optional<CoordinationConfig> coordination) {

    public static final int DEFAULT_ADMIN_PORT = 6034;

    public CleaveConfig {
        datadirRoots = List.copyOf(datadirRoots);
    }

    public long bufferPoolPerShard() {
        return bufferPoolBytes / shards;
    }

    /** This config with the shards' server settings {@code server} (a standby pair adds its options to them). */
    public CleaveConfig withServer(ServerConfig server) {
        return new CleaveConfig(source, shards, server, bufferPoolBytes, datadirRoots, logDir, ioCapacity,
                redoWriteRate, cpuSets, proxy, adminPort, listen, sharding, backup, standby, coordination);
    }

    /**
     * This config with {@code n} shards: the count the state holds once {@code cleave scale}
     * changed it (the file's {@code shards} was the initial count).
     */
    public CleaveConfig withShards(int n) {
        return n == shards ? this : new CleaveConfig(source, n, server, bufferPoolBytes, datadirRoots, logDir, ioCapacity,
                redoWriteRate, cpuSets, proxy, adminPort, listen, sharding, backup, standby, coordination);
    }
}
