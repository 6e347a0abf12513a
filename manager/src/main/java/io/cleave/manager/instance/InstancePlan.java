package io.cleave.manager.instance;

import io.cleave.manager.host.Storage;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * Everything one shard instance needs, decided before anything starts.
 *
 * @param logDir         redo logs and binlogs: a separate device's directory, or the datadir
 * @param separateLogDir whether {@code logDir} is apart from the datadir
 * @param shardCount     how many shards the home has: AUTO_INCREMENT steps by it, each shard at
 *                       its own offset, so ids generated on different shards never collide
 * @param cpu            the CPUs and NUMA nodes it runs on, and how it is put there
 * @param dataStorage    what holds its datadir
 * @param logStorage     what holds its redo log and binlog (the datadir's storage without a log dir)
 * @param settings       every option the planner decided, written to my.cnf or not, each with its reason
 */
public record InstancePlan(int index, int shardCount, String name, int serverId, int port, Path socket, Path pidFile,
                           Path datadir, Path logDir, boolean separateLogDir, Path errorLog, Path consoleLog,
                           Path cnf, long bufferPoolBytes, CpuPlacement cpu, Storage dataStorage, Storage logStorage,
                           List<Setting> settings) {

    public InstancePlan {
        settings = List.copyOf(settings);
    }

    public static String nameOf(int index) {
        return "shard-" + index;
    }

    InstancePlan withSettings(List<Setting> decided) {
        return new InstancePlan(index, shardCount, name, serverId, port, socket, pidFile, datadir, logDir, separateLogDir,
                errorLog, consoleLog, cnf, bufferPoolBytes, cpu, dataStorage, logStorage, decided);
    }

    /**
     * The shard's own directory for temporary files, beside its pid file in the home's run
     * directory: in the host's shared /tmp, other servers' cleanups removed its implicit temporary
     * tables' files under it (error 6, "Error on delete of /tmp/#sql-temptable-...").
     */
    public Path tmpdir() {
        return pidFile.resolveSibling(name + ".tmp");
    }

    /** The lines of my.cnf, in plan order. */
    public List<Setting> written() {
        return settings.stream().filter(Setting::written).toList();
    }

    /** The value my.cnf gives an option, when it gives one. */
    public Optional<String> writtenValue(String option) {
        return written().stream().filter(s -> s.option().equals(option)).map(Setting::value).reduce((a, b) -> b);
    }
}
