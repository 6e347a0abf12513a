package io.cleave.e2e.support;

import io.cleave.manager.home.LoopbackPorts;
import io.cleave.manager.daemon.DaemonOptions;
import io.cleave.manager.daemon.CleaveProxyService;
import io.cleave.manager.daemon.ProxyFactory;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.supervisor.ProcessInspector;
import io.cleave.manager.supervisor.RestartPolicy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * A throw-away Cleave home for a test: a temp directory under /tmp (short, for Unix sockets) with a
 * generated cleave.yaml on free loopback ports, from which real daemons are started in-process; the
 * shards run the {@link TestServer} (the embedded MariaDB unless the test run names another).
 * Datadirs are copies of the datadir template cached per server version (in $CLEAVE_CACHE or
 * ~/.cache/cleave), so a daemon with two shards is up in a second or two.
 *
 * <pre>{@code
 * try (CleaveTestHome home = CleaveTestHome.builder().shards(2).create();
 *      RunningDaemon daemon = home.start()) {
 *     try (Connection c = daemon.connect(1)) { ... }
 * }
 * }</pre>
 *
 * {@link #close()} stops any server this home still has running and deletes the directory.
 */
public final class CleaveTestHome implements AutoCloseable {

    private final Path root;
    private final Path configFile;
    private final int basePort;
    private final int shards;
    private final RestartPolicy restartPolicy;
    private final Optional<ProxyFactory> proxy;
    private int proxyPort;

    private CleaveTestHome(Builder b) throws IOException {
        this.root = Files.createTempDirectory(Path.of("/tmp"), "cleave-it-");
        SharedProxyCertificate.copyInto(root);
        this.shards = b.shards;
        this.basePort = freePortRange(Math.max(b.shards, b.portRange));
        this.restartPolicy = b.restartPolicy;
        this.proxy = Optional.ofNullable(b.proxy);
        this.configFile = root.resolve("cleave.yaml");
        StringBuilder yaml = new StringBuilder();
        yaml.append("shards: ").append(b.shards).append('\n');
        yaml.append("server:\n  binary: \"").append(TestServer.binary()).append("\"\n  base_port: ").append(basePort).append('\n');
        b.serverSettings.forEach((k, v) -> yaml.append("  ").append(k).append(": ").append(v).append('\n'));
        if (!b.serverOptions.isEmpty()) {
            yaml.append("  options:\n");
            b.serverOptions.forEach((k, v) -> yaml.append("    ").append(k).append(": \"").append(v).append("\"\n"));
        }
        yaml.append("buffer_pool: ").append(b.bufferPoolPerShardMiB * b.shards).append("M\n");
        yaml.append("proxy:\n  listen: 127.0.0.1:").append(b.proxyPort).append('\n');
        this.proxyPort = b.proxyPort;
        b.proxyOptions.forEach((k, v) -> yaml.append("  ").append(k).append(": ").append(v).append('\n'));
        yaml.append(b.proxyUsers);
        yaml.append("admin:\n  port: ").append(b.adminPort).append('\n');
        yaml.append(b.extraYaml);
        Files.writeString(configFile, yaml.toString());
    }

    public static Builder builder() {
        return new Builder();
    }

    /** The home directory ({@code --home}). */
    public Path root() {
        return root;
    }

    public CleaveHome home() {
        return new CleaveHome(root);
    }

    public Path configFile() {
        return configFile;
    }

    /** Shard i listens on 127.0.0.1:(basePort + i). */
    public int basePort() {
        return basePort;
    }

    public int shards() {
        return shards;
    }

    /** The proxy's TCP port on 127.0.0.1. */
    public int proxyPort() {
        return proxyPort;
    }

    public DaemonOptions daemonOptions() {
        DaemonOptions options = DaemonOptions.standard(home(), configFile, System.getenv()).withRestartPolicy(restartPolicy);
        return proxy.map(options::withProxy).orElse(options);
    }

    /** Starts an in-process daemon and waits until every shard is ready or given up. */
    public RunningDaemon start() {
        return RunningDaemon.start(this);
    }

    /** Pids of the servers running for this home, found by their command line (etc/shard-N.cnf). */
    public Map<Integer, Long> serverPids() {
        Map<Integer, Long> pids = new LinkedHashMap<>();
        // Every shard-N.cnf: a scale may have added shards beyond the config's count.
        int highest = shards - 1;
        try (Stream<Path> files = Files.exists(home().etc()) ? Files.list(home().etc()) : Stream.empty()) {
            for (Path f : files.toList()) {
                String name = f.getFileName().toString();
                if (name.matches("shard-\\d+\\.cnf")) {
                    highest = Math.max(highest, Integer.parseInt(name.substring(6, name.length() - 4)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int i = 0; i <= highest; i++) {
            Path cnf = home().etc().resolve("shard-" + i + ".cnf");
            int shard = i;
            ProcessInspector.findServerFor(cnf).ifPresent(p -> pids.put(shard, p.pid()));
        }
        return pids;
    }

    /** Kills whatever this home left running, then deletes it. */
    @Override
    public void close() {
        for (long pid : serverPids().values()) {
            ProcessHandle.of(pid).ifPresent(p -> {
                p.destroyForcibly();
                p.onExit().orTimeout(30, java.util.concurrent.TimeUnit.SECONDS).join();
            });
        }
        deleteTree(root);
    }

    /** Deletes {@code dir} and everything in it (a test's scratch directory, once its servers are stopped). */
    public static void deleteTree(Path dir) {
        if (!Files.exists(dir)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The first of n consecutive free loopback ports, below the kernel's ephemeral range and never handed out
     * twice in this JVM ({@link LoopbackPorts}: a port from the ephemeral range can go to a client socket before the
     * server binds it).
     */
    public static int freePortRange(int n) {
        return LoopbackPorts.range(n);
    }

    /** A free loopback port, as {@link #freePortRange}. */
    public static int freePort() {
        return LoopbackPorts.one();
    }

    /** Options of a test home; defaults: 2 shards of 64M, quick restarts (a crash loop after 3 crashes). */
    public static final class Builder {
        private int shards = 2;
        private int portRange;
        private int bufferPoolPerShardMiB = 64;
        private final Map<String, String> serverOptions = new LinkedHashMap<>();
        private final Map<String, String> proxyOptions = new LinkedHashMap<>();
        private final Map<String, String> serverSettings = new LinkedHashMap<>();
        private String proxyUsers = "  users:\n    - name: root\n      password: \"\"\n";
        private String extraYaml = "";
        private int proxyPort = freePort();
        private int adminPort;
        private RestartPolicy restartPolicy = new RestartPolicy(Duration.ofMillis(200), Duration.ofSeconds(2), 3,
                Duration.ofMinutes(2), Duration.ofSeconds(30), Duration.ofMinutes(2));
        private ProxyFactory proxy = CleaveProxyService.FACTORY;

        public Builder shards(int n) {
            this.shards = n;
            return this;
        }

        /** Keeps {@code n} consecutive shard ports free (a test that scales to more shards than it starts with). */
        public Builder portRange(int n) {
            this.portRange = n;
            return this;
        }

        public Builder bufferPoolPerShardMiB(int mib) {
            this.bufferPoolPerShardMiB = mib;
            return this;
        }

        /** An extra my.cnf option for every shard (server.options). */
        public Builder serverOption(String name, String value) {
            serverOptions.put(name, value);
            return this;
        }

        /** A setting of the server section, e.g. {@code replication_tls}. */
        public Builder serverSetting(String name, String value) {
            serverSettings.put(name, value);
            return this;
        }

        /** An option of the proxy section, e.g. {@code max_backend_connections_per_shard}. */
        public Builder proxyOption(String name, Object value) {
            proxyOptions.put(name, String.valueOf(value));
            return this;
        }

        /**
         * The proxy's {@code users:} block instead of the default (root with an empty password),
         * indented as it sits under {@code proxy:}.
         */
        public Builder proxyUsers(String usersYaml) {
            this.proxyUsers = usersYaml.endsWith("\n") ? usersYaml : usersYaml + "\n";
            return this;
        }

        /** YAML appended to the generated config, e.g. a {@code sharding:} section. */
        public Builder extraYaml(String yaml) {
            this.extraYaml = yaml.endsWith("\n") ? yaml : yaml + "\n";
            return this;
        }

        /** The admin API's port (default 0: any free one at each start). */
        public Builder adminPort(int port) {
            this.adminPort = port;
            return this;
        }

        public Builder proxyPort(int port) {
            this.proxyPort = port;
            return this;
        }

        public Builder restartPolicy(RestartPolicy policy) {
            this.restartPolicy = policy;
            return this;
        }

        /** The proxy the daemon starts once the shards are ready (the real one unless told otherwise). */
        public Builder proxy(ProxyFactory factory) {
            this.proxy = factory;
            return this;
        }

        /** Run the shards only. */
        public Builder withoutProxy() {
            this.proxy = null;
            return this;
        }

        public CleaveTestHome create() {
            try {
                return new CleaveTestHome(this);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
