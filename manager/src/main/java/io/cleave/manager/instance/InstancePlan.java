package io.cleave.manager.instance;

import java.nio.file.Path;
import java.util.Optional;

/**
 * Everything one shard instance needs, decided before anything starts.
 *
 * @param logDir            redo logs and binlogs: a separate device's directory, or the datadir
 * @param separateLogDir    whether {@code logDir} is apart from the datadir
 * @param directIo          whether the datadir's filesystem takes O_DIRECT
 * @param flushMethodReason why O_DIRECT is not used, when it is not
 * @param shardCount        how many shards the home has: AUTO_INCREMENT steps by it, each shard at
 *                          its own offset, so ids generated on different shards never collide
 */
public record InstancePlan(int index, int shardCount, String name, int serverId, int port, Path socket, Path pidFile,
                           Path datadir, Path logDir, boolean separateLogDir, Path errorLog, Path consoleLog,
                           Path cnf, long bufferPoolBytes, int bufferPoolInstances, int ioCapacity,
                           Optional<String> cpuSet, boolean directIo, String flushMethodReason) {

    public static final int SERVER_ID_BASE = 1000;

    public static String nameOf(int index) {
        return "shard-" + index;
    }
}
