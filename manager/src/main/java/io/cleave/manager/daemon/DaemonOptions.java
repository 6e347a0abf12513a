package io.cleave.manager.daemon;

import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.supervisor.RestartPolicy;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * How to run a {@link Daemon}.
 *
 * @param cacheDir      embedded server extraction and datadir templates
 * @param pathVariable  PATH to look for mysqld/mariadbd in
 * @param readyTimeout  how long {@link Daemon#start()} waits for every shard to be ready or given up
 * @param stopTimeout   how long a shard may take to shut down before it is killed
 * @param proxy         the proxy to run once shards are ready; empty runs shards only
 */
public record DaemonOptions(CleaveHome home, Path configFile, Path cacheDir, String pathVariable,
                            RestartPolicy restartPolicy, Duration readyTimeout, Duration stopTimeout,
                            Optional<ProxyFactory> proxy) {

    public static DaemonOptions standard(CleaveHome home, Path configFile, java.util.Map<String, String> env) {
        return new DaemonOptions(home, configFile, CleaveHome.cacheDir(env), env.getOrDefault("PATH", ""),
                RestartPolicy.standard(), Duration.ofMinutes(10), Duration.ofMinutes(2), Optional.empty());
    }

    public DaemonOptions withRestartPolicy(RestartPolicy policy) {
        return new DaemonOptions(home, configFile, cacheDir, pathVariable, policy, readyTimeout, stopTimeout, proxy);
    }

    public DaemonOptions withProxy(ProxyFactory factory) {
        return new DaemonOptions(home, configFile, cacheDir, pathVariable, restartPolicy, readyTimeout, stopTimeout,
                Optional.of(factory));
    }

    public DaemonOptions withPathVariable(String path) {
        return new DaemonOptions(home, configFile, cacheDir, path, restartPolicy, readyTimeout, stopTimeout, proxy);
    }
}
