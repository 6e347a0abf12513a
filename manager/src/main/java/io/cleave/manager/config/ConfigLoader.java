package io.cleave.manager.config;

import io.cleave.manager.auth.PasswordHashes;
import io.cleave.manager.host.CpuList;
import io.cleave.proxy.transport.TransportSetting;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.Yaml;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.nodes.Node;

import java.io.IOException;
import java.io.Reader;
import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Pattern;

/**
 * Loads and validates {@code cleave.yaml}. Works on SnakeYAML's node tree rather than on
 * deserialized maps so that every error can name the file, the line and the field path.
 */
public final class ConfigLoader {

    private static final Pattern OPTION_NAME = Pattern.compile("[a-z][a-z0-9_-]*");
    private static final int MAX_SHARDS = 64;
    private static final long MIN_POOL_PER_SHARD = 16L << 20;

    private ConfigLoader() {
    }

    public static CleaveConfig load(Path file) {
        String text;
        try {
            text = Files.readString(file);
        } catch (IOException e) {
            throw new ConfigException(file.toString(), "cannot read the config file: " + e.getMessage());
        }
        return parse(file, text);
    }

    /** Parses config text as if it came from {@code file} (relative paths resolve against its directory). */
    public static CleaveConfig parse(Path file, String text) {
        String name = file.toString();
        Node root;
        try (Reader reader = new StringReader(text)) {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(true); // reported with their line by YamlMapping instead
            root = new Yaml(options).compose(reader);
        } catch (MarkedYAMLException e) {
            int line = e.getProblemMark() == null ? 1 : e.getProblemMark().getLine() + 1;
            throw new ConfigException(List.of(new ConfigError(name, line, "(syntax)", "not valid YAML: " + e.getProblem())));
        } catch (IOException e) {
            throw new ConfigException(name, e.getMessage());
        }
        if (root == null) {
            throw new ConfigException(name, "the file is empty: expected at least 'shards: N'");
        }
        Problems problems = new Problems(name);
        Path dir = file.toAbsolutePath().getParent();
        YamlMapping top = new YamlMapping(root, "", problems);

        int shards = top.integer("shards", 4, 1, MAX_SHARDS);
        YamlMapping serverSection = top.mapping("server");
        ServerConfig server = server(serverSection, dir);
        long bufferPool = top.size("buffer_pool", 1L << 30);
        if (bufferPool / shards < MIN_POOL_PER_SHARD) {
            problems.add(top.lineOf("buffer_pool"), "buffer_pool", ByteSize.format(bufferPool) + " split across "
                    + shards + " shards is below the 16M each a shard needs: expected at least " + ByteSize.format(MIN_POOL_PER_SHARD * shards));
        }
        List<Path> roots = new ArrayList<>();
        for (String root1 : top.stringList("datadir_roots")) {
            roots.add(dir.resolve(root1).normalize());
        }
        Optional<Path> logDir = top.string("log_dir").map(p -> dir.resolve(p).normalize());
        OptionalInt ioCapacity = ioCapacity(top);
        Optional<Long> redoWriteRate = top.string("redo_write_rate").isEmpty() ? Optional.empty()
                : Optional.of(top.size("redo_write_rate", 0)).filter(r -> r > 0);
        CpuSets cpuSets = cpuSets(top, shards);
        ProxyConfig proxy = proxy(top.mapping("proxy"), dir);
        YamlMapping admin = top.mapping("admin");
        int adminPort = admin.integer("port", CleaveConfig.DEFAULT_ADMIN_PORT, 0, 65535); // 0: any free port
        String adminHost = ListenAddresses.LOOPBACK;
        Optional<String> adminListen = admin.string("listen");
        if (adminListen.isPresent()) {
            if (admin.string("port").isPresent()) {
                problems.add(admin.lineOf("port"), admin.field("port"), "give admin.listen or admin.port, not both");
            }
            try {
                HostPort hp = HostPort.parse(adminListen.get());
                ListenAddresses.addressProblem(hp.host()).ifPresent(p -> problems.add(admin.lineOf("listen"),
                        admin.field("listen"), p));
                adminHost = hp.host();
                adminPort = hp.port();
            } catch (IllegalArgumentException e) {
                problems.add(admin.lineOf("listen"), admin.field("listen"), e.getMessage());
            }
        }
        admin.rejectUnknownKeys();
        ListenAddresses listen = listenAddresses(serverSection, adminHost, admin);
        serverSection.rejectUnknownKeys();
        ShardingConfig sharding = new ShardingLoader(top.mapping("sharding"), shards).load();
        BackupConfig backup = backup(top.mapping("backup"), dir);
        Optional<StandbySource> standby = standby(top.mapping("standby"), dir);
        Optional<CoordinationConfig> coordination = coordination(top.mapping("coordination"), dir);
        top.rejectUnknownKeys();

        int maxPort = server.basePort() + shards - 1;
        if (maxPort > 65535) {
            problems.add(top.lineOf("server"), "server.base_port", "shard ports " + server.basePort() + ".." + maxPort
                    + " go past 65535: expected a lower base_port");
        }
        problems.throwIfAny();
        return new CleaveConfig(file, shards, server, bufferPool, roots, logDir, ioCapacity, redoWriteRate, cpuSets, proxy,
                adminPort, listen, sharding, backup, standby, coordination);
    }

    /**
     * The coordination section: etcd's client URLs (http://HOST:PORT, or all https://HOST:PORT with the TLS files)
     * and the pair's name; none without URLs.
     */
    private static Optional<CoordinationConfig> coordination(YamlMapping section, Path dir) {
        List<String> etcd = section.stringList("etcd");
        Optional<String> cluster = section.string("cluster");
        int leaseSeconds = section.integer("lease_s", CoordinationConfig.DEFAULT_LEASE_SECONDS, 2, 60);
        String rejoinText = section.string("rejoin").orElse("manual");
        EtcdTls tls = new EtcdTls(section.string("ca_file").map(p -> dir.resolve(p).normalize()),
                section.string("cert_file").map(p -> dir.resolve(p).normalize()),
                section.string("key_file").map(p -> dir.resolve(p).normalize()));
        section.rejectUnknownKeys();
        CoordinationConfig.Rejoin rejoin = switch (rejoinText) {
            case "manual" -> CoordinationConfig.Rejoin.MANUAL;
            case "auto" -> CoordinationConfig.Rejoin.AUTO;
            default -> {
                section.problems().add(section.lineOf("rejoin"), section.field("rejoin"), "'" + rejoinText + "' is not a"
                        + " way to rejoin: expected manual (an old primary waits for 'cleave rejoin') or auto (it"
                        + " rejoins as the new primary's standby by itself when its shards hold nothing the new one lacks)");
                yield CoordinationConfig.Rejoin.MANUAL;
            }
        };
        if (etcd.isEmpty() && cluster.isEmpty()) {
            return Optional.empty();
        }
        if (etcd.isEmpty()) {
            section.problems().add(section.line(), section.field("etcd"), "coordination needs the etcd members' client"
                    + " URLs, e.g. etcd: [http://10.0.0.1:2379, http://10.0.0.2:2379, http://10.0.0.3:2379]");
        }
        for (String url : etcd) {
            if (!url.matches("https?://[^/\\s]+/?")) {
                section.problems().add(section.lineOf("etcd"), section.field("etcd"), "'" + url
                        + "' is not an etcd client URL: expected http://HOST:PORT or https://HOST:PORT");
            }
        }
        long https = etcd.stream().filter(u -> u.startsWith("https://")).count();
        if (https > 0 && https < etcd.size()) {
            section.problems().add(section.lineOf("etcd"), section.field("etcd"), "mixes http and https URLs: expected"
                    + " every member's URL with https:// (TLS to all of them) or every one with http://");
        }
        checkEtcdTls(section, tls, https > 0);
        String name = cluster.orElse("cleave");
        if (!name.matches("[A-Za-z0-9._-]{1,64}")) {
            section.problems().add(section.lineOf("cluster"), section.field("cluster"), "'" + name
                    + "' is not a cluster name: expected letters, digits, '.', '_' or '-' (at most 64)");
        }
        return Optional.of(new CoordinationConfig(etcd, name, java.time.Duration.ofSeconds(leaseSeconds), rejoin,
                https > 0 ? tls : EtcdTls.NONE));
    }

    /**
     * The TLS files go with https URLs only, the client certificate with its key, and each must be a readable PEM
     * file of its kind (certificates; an unencrypted key).
     */
    private static void checkEtcdTls(YamlMapping section, EtcdTls tls, boolean https) {
        if (!https) {
            for (String key : List.of("ca_file", "cert_file", "key_file")) {
                if (section.string(key).isPresent()) {
                    section.problems().add(section.lineOf(key), section.field(key), "is for TLS to etcd, but the etcd"
                            + " URLs are http: expected https://HOST:PORT URLs, or no " + key);
                }
            }
            return;
        }
        if (tls.certFile().isPresent() != tls.keyFile().isPresent()) {
            String missing = tls.certFile().isPresent() ? "key_file" : "cert_file";
            String given = tls.certFile().isPresent() ? "cert_file" : "key_file";
            section.problems().add(section.lineOf(given), section.field(missing), "cert_file and key_file go together"
                    + " (the client certificate etcd's --client-cert-auth checks, and its key): expected both, or neither");
        }
        Map<String, Optional<Path>> files = new LinkedHashMap<>();
        files.put("ca_file", tls.caFile());
        files.put("cert_file", tls.certFile());
        files.put("key_file", tls.keyFile());
        files.forEach((key, file) -> {
            if (file.isPresent() && !Files.exists(file.get())) {
                section.problems().add(section.lineOf(key), section.field(key), file.get() + " does not exist");
            } else if (file.isPresent() && (!Files.isRegularFile(file.get()) || !Files.isReadable(file.get()))) {
                section.problems().add(section.lineOf(key), section.field(key), file.get()
                        + " is not a readable file (check its permissions for the daemon's user)");
            } else if (file.isPresent()) {
                try {
                    if (key.equals("key_file")) {
                        PemFiles.privateKey(file.get());
                    } else {
                        PemFiles.certificates(file.get());
                    }
                } catch (IllegalArgumentException e) {
                    section.problems().add(section.lineOf(key), section.field(key), e.getMessage());
                }
            }
        });
    }

    /** The standby section: all three keys or none; a relative token file resolves against the config's directory. */
    private static Optional<StandbySource> standby(YamlMapping standby, Path dir) {
        Optional<String> primary = standby.string("primary");
        Optional<String> token = standby.string("primary_token_file");
        Optional<String> via = standby.string("via");
        standby.rejectUnknownKeys();
        if (primary.isEmpty() && token.isEmpty() && via.isEmpty()) {
            return Optional.empty();
        }
        if (primary.isEmpty() || token.isEmpty() || via.isEmpty()) {
            standby.problems().add(standby.line(), standby.path(), "a standby's config names primary (the primary's"
                    + " admin URL), primary_token_file (a copy of its state/admin-token) and via (where the seeding"
                    + " backup goes)");
            return Optional.empty();
        }
        if (!primary.get().matches("https?://[^/\\s]+/?")) {
            standby.problems().add(standby.lineOf("primary"), standby.field("primary"), "'" + primary.get()
                    + "' is not an admin URL: expected http://HOST:PORT");
        }
        return Optional.of(new StandbySource(primary.get(), dir.resolve(token.get()).normalize(), via.get()));
    }

    /** The backup section; a relative directory resolves against the config's directory, as other paths do. */
    private static BackupConfig backup(YamlMapping backup, Path dir) {
        Optional<String> location = backup.string("location")
                .map(l -> l.startsWith("s3://") ? l : dir.resolve(l).normalize().toString());
        if (location.isPresent() && location.get().startsWith("s3://") && !location.get().matches("s3://[^/]+(/.*)?")) {
            backup.problems().add(backup.lineOf("location"), backup.field("location"), "'" + location.get()
                    + "' names no bucket: expected s3://BUCKET/PREFIX or a directory");
        }
        boolean archive = backup.bool("archive_binlogs", false);
        if (archive && location.isEmpty()) {
            backup.problems().add(backup.lineOf("archive_binlogs"), backup.field("archive_binlogs"),
                    "archiving binlogs needs backup.location: the directory or s3://BUCKET/PREFIX they are copied to");
        }
        int cutSeconds = backup.integer("cut_interval_s", 5, 1, 3_600);
        int maxSnapshotSeconds = backup.integer("max_snapshot_s", (int) BackupConfig.NONE.maxSnapshot().toSeconds(), 10,
                7 * 86_400);
        YamlMapping s3 = backup.mapping("s3");
        Optional<String> endpoint = s3.string("endpoint");
        if (endpoint.isPresent() && !endpoint.get().matches("https?://.+")) {
            s3.problems().add(s3.lineOf("endpoint"), s3.field("endpoint"), "'" + endpoint.get()
                    + "' is not a URL: expected e.g. http://127.0.0.1:9000");
        }
        String region = s3.string("region", BackupConfig.NONE.s3Region());
        s3.rejectUnknownKeys();
        String engineText = backup.string("engine", BackupEngine.AUTO.label());
        BackupEngine engine = BackupEngine.parse(engineText);
        if (engine == null) {
            backup.problems().add(backup.lineOf("engine"), backup.field("engine"), "'" + engineText
                    + "' is not an engine: expected auto, physical or logical");
            engine = BackupEngine.AUTO;
        }
        int maxRate = backup.integer("max_rate_mb_s", 0, 0, 1_000_000);
        backup.rejectUnknownKeys();
        return new BackupConfig(location, archive, Duration.ofSeconds(cutSeconds), Duration.ofSeconds(maxSnapshotSeconds),
                endpoint, region, engine, maxRate);
    }

    /** {@code auto} (the default: from each device's class) or a whole number of I/O operations per second per device. */
    private static OptionalInt ioCapacity(YamlMapping top) {
        Optional<String> text = top.string("io_capacity");
        if (text.isEmpty() || text.get().equals("auto")) {
            return OptionalInt.empty();
        }
        if (!text.get().matches("\\d+")) {
            top.problems().add(top.lineOf("io_capacity"), "io_capacity", "'" + text.get()
                    + "' is not valid: expected auto (from each device's class) or a whole number of I/O operations per second");
            return OptionalInt.empty();
        }
        return OptionalInt.of(top.integer("io_capacity", 2000, 100, 10_000_000));
    }

    /** {@code auto}, a list of one CPU list per shard, or none ({@code []}, the default). */
    private static CpuSets cpuSets(YamlMapping top, int shards) {
        Problems problems = top.problems();
        Optional<org.yaml.snakeyaml.nodes.Node> value = top.value("cpu_sets");
        if (value.isPresent() && value.get() instanceof org.yaml.snakeyaml.nodes.ScalarNode) {
            String text = top.string("cpu_sets").orElse("");
            if (!text.equals("auto")) {
                problems.add(top.lineOf("cpu_sets"), "cpu_sets", "'" + text
                        + "' is not valid: expected auto, or a list of one CPU list per shard such as [\"0-7\", \"8-15\"]");
            }
            return new CpuSets.Auto();
        }
        List<String> lists = top.stringList("cpu_sets");
        if (lists.isEmpty()) {
            return new CpuSets.Unpinned();
        }
        if (lists.size() != shards) {
            problems.add(top.lineOf("cpu_sets"), "cpu_sets", "has " + lists.size() + " entries for " + shards
                    + " shards: expected none, auto, or exactly one per shard");
        }
        for (int i = 0; i < lists.size(); i++) {
            if (!CpuList.isValid(lists.get(i))) {
                problems.add(top.lineOf("cpu_sets"), "cpu_sets[" + i + "]", "'" + lists.get(i)
                        + "' is not a CPU list: expected e.g. \"0-7\" or \"0,2,4-6\"");
            }
        }
        return new CpuSets.Explicit(lists);
    }

    /**
     * server.bind_address and server.advertise_host (read here, not by {@link #server}, which has no admin section):
     * a wildcard address needs the advertised host other hosts use.
     */
    private static ListenAddresses listenAddresses(YamlMapping server, String adminHost, YamlMapping admin) {
        Problems problems = server.problems();
        String bind = server.string("bind_address", ListenAddresses.LOOPBACK);
        ListenAddresses.addressProblem(bind).ifPresent(p -> problems.add(server.lineOf("bind_address"),
                server.field("bind_address"), p));
        Optional<String> advertise = server.string("advertise_host");
        advertise.filter(h -> !h.matches("[A-Za-z0-9.:_-]+") || ListenAddresses.isWildcard(h)).ifPresent(h -> problems.add(
                server.lineOf("advertise_host"), server.field("advertise_host"), "'" + h + "' is not a host name or"
                        + " address other hosts can connect to: expected e.g. 10.0.0.1 or db-a.example.com"));
        if (advertise.isEmpty() && ListenAddresses.isWildcard(bind)) {
            problems.add(server.lineOf("bind_address"), server.field("bind_address"), "'" + bind + "' listens on every"
                    + " address: set server.advertise_host to the one a standby's replicas connect to");
        }
        if (advertise.isEmpty() && ListenAddresses.isWildcard(adminHost)) {
            problems.add(admin.lineOf("listen"), admin.field("listen"), "'" + adminHost + "' listens on every address:"
                    + " set server.advertise_host to the one the pair's other home and etcd's readers use");
        }
        ReplicationTls tls = ReplicationTls.defaultFor(bind);
        Optional<String> tlsText = server.string("replication_tls");
        if (tlsText.isPresent()) {
            Optional<ReplicationTls> parsed = ReplicationTls.parse(tlsText.get());
            if (parsed.isPresent()) {
                tls = parsed.get();
            } else {
                problems.add(server.lineOf("replication_tls"), server.field("replication_tls"), "'" + tlsText.get()
                        + "' is not a replication TLS setting: expected 'required' or 'off'");
            }
        }
        return new ListenAddresses(bind, advertise, adminHost, tls);
    }

    private static ServerConfig server(YamlMapping server, Path dir) {
        Problems problems = server.problems();
        String binary = server.string("binary", "auto");
        ServerChoice choice = switch (binary) {
            case "auto" -> new ServerChoice.Auto();
            case "embedded" -> new ServerChoice.Embedded();
            default -> {
                Path path = dir.resolve(binary).normalize();
                if (!Files.isRegularFile(path) || !Files.isExecutable(path)) {
                    problems.add(server.lineOf("binary"), server.field("binary"), path
                            + " is not an executable file: expected 'auto', 'embedded' or the path of a mysqld/mariadbd binary");
                }
                yield new ServerChoice.Configured(path);
            }
        };
        int basePort = server.integer("base_port", ServerConfig.DEFAULT_BASE_PORT, 1, 65535);
        String osUser = server.string("os_user", ServerConfig.DEFAULT_OS_USER);
        int serverIdBase = server.integer("server_id_base", ServerConfig.DEFAULT_SERVER_ID_BASE, 1, 1_000_000_000);
        if (!osUser.matches("[a-z_][a-z0-9_-]{0,31}")) {
            problems.add(server.lineOf("os_user"), server.field("os_user"), "'" + osUser + "' is not an OS user name:"
                    + " expected lower-case letters, digits, '_' or '-', at most 32");
        }
        Map<String, String> options = new LinkedHashMap<>();
        YamlMapping extra = server.mapping("options");
        for (String key : extra.keys()) {
            if (!OPTION_NAME.matcher(key).matches()) {
                problems.add(extra.lineOf(key), extra.field(key), "is not a server option name: expected lower-case letters, digits, '_' or '-'");
            }
            extra.string(key).ifPresent(v -> options.put(key, v));
        }
        return new ServerConfig(choice, basePort, options, osUser, serverIdBase);
    }

    private static ProxyConfig proxy(YamlMapping proxy, Path dir) {
        Problems problems = proxy.problems();
        HostPort listen = new HostPort("127.0.0.1", 6033);
        Optional<String> listenText = proxy.string("listen");
        if (listenText.isPresent()) {
            try {
                listen = HostPort.parse(listenText.get());
            } catch (IllegalArgumentException e) {
                problems.add(proxy.lineOf("listen"), proxy.field("listen"), e.getMessage());
            }
        }
        int maxBackend = proxy.integer("max_backend_connections_per_shard", 32, 1, 10_000);
        int waitMillis = proxy.integer("backend_wait_timeout_ms", 10_000, 1, 3_600_000);
        int threads = proxy.integer("threads", 0, 0, 1024);
        int recoverySeconds = proxy.integer("xa_recovery_interval_s", 30, 0, 86_400);
        int deadlockCheckMillis = proxy.integer("deadlock_check_after_ms",
                (int) io.cleave.proxy.server.ProxyConfig.DEFAULT_DEADLOCK_CHECK_AFTER.toMillis(), 0, 60_000);
        long maxAllowedPacket = sizeBetween(proxy, "max_allowed_packet", 64L << 20, 1L << 10, 1L << 30);
        int pipelineDepth = proxy.integer("pipeline_depth", io.cleave.proxy.server.ProxyConfig.DEFAULT_PIPELINE_DEPTH, 1,
                io.cleave.proxy.server.ProxyConfig.MAX_PIPELINE_DEPTH);
        io.cleave.proxy.evaluate.EvaluationLimits evaluate = new io.cleave.proxy.evaluate.EvaluationLimits(
                proxy.integer("evaluate_max_rows", (int) io.cleave.proxy.evaluate.EvaluationLimits.DEFAULT.maxRows(), 0,
                        100_000_000),
                sizeBetween(proxy, "evaluate_max_bytes", io.cleave.proxy.evaluate.EvaluationLimits.DEFAULT.maxBytes(), 0,
                        1L << 30));
        LoginConfig login = new LoginConfig(Duration.ofSeconds(proxy.integer("connect_timeout_s", 10, 1, 3_600)),
                sizeBetween(proxy, "max_login_packet", 64L << 10, 1L << 10, 16L << 20),
                proxy.integer("failed_logins_before_delay", 3, 0, 1_000_000),
                Duration.ofMillis(proxy.integer("failed_login_delay_ms", 1_000, 0, 3_600_000)),
                Duration.ofMillis(proxy.integer("failed_login_max_delay_ms", 30_000, 0, 3_600_000)));
        if (login.maxFailureDelay().compareTo(login.failureDelay()) < 0) {
            problems.add(proxy.lineOf("failed_login_max_delay_ms"), proxy.field("failed_login_max_delay_ms"),
                    login.maxFailureDelay().toMillis() + " is below failed_login_delay_ms ("
                    + login.failureDelay().toMillis() + "): expected at least that");
        }
        Optional<Path> socket = proxy.string("socket")
                .map(p -> p.equals("none") ? ProxyConfig.NO_SOCKET : dir.resolve(p).normalize());
        YamlMapping tls = proxy.mapping("tls");
        Optional<Path> cert = tls.string("cert").map(p -> dir.resolve(p).normalize());
        Optional<Path> key = tls.string("key").map(p -> dir.resolve(p).normalize());
        if (cert.isPresent() != key.isPresent()) {
            problems.add(tls.line(), tls.field(cert.isPresent() ? "key" : "cert"),
                    "cert and key go together: expected both PEM files, or neither (a self-signed pair is generated)");
        }
        for (Optional<Path> pem : List.of(cert, key)) {
            if (pem.isPresent() && !Files.isReadable(pem.get())) {
                problems.add(tls.line(), tls.field(pem == cert ? "cert" : "key"), pem.get() + " is not a readable file");
            }
        }
        tls.rejectUnknownKeys();

        List<ProxyUser> users = new ArrayList<>();
        List<Node> items = proxy.list("users");
        if (items.isEmpty()) {
            problems.add(proxy.lineOf("users"), proxy.field("users"), "no users: expected at least one, e.g. - { name: root, password: \"\" }");
        }
        for (int i = 0; i < items.size(); i++) {
            YamlMapping user = new YamlMapping(items.get(i), proxy.field("users") + "[" + i + "]", problems);
            ProxyUser parsed = user(user, listen);
            if (parsed != null) {
                if (users.stream().anyMatch(u -> u.name().equals(parsed.name()))) {
                    problems.add(user.lineOf("name"), user.field("name"), "user '" + parsed.name() + "' is defined twice");
                }
                users.add(parsed);
            }
        }
        TransportSetting transport = transport(proxy);
        boolean consistentCuts = proxy.bool("consistent_cuts", true);
        io.cleave.proxy.proxyprotocol.ProxyProtocolPolicy proxyProtocol = proxyProtocol(proxy);
        proxy.rejectUnknownKeys();
        return new ProxyConfig(listen, socket, threads, maxBackend, Duration.ofMillis(waitMillis), cert, key,
                users, Duration.ofSeconds(recoverySeconds), Duration.ofMillis(deadlockCheckMillis), maxAllowedPacket,
                login, evaluate, transport, pipelineDepth, consistentCuts, proxyProtocol);
    }

    /** {@code proxy_protocol_networks} as MariaDB's variable of that name takes it, and {@code proxy_protocol_required}. */
    private static io.cleave.proxy.proxyprotocol.ProxyProtocolPolicy proxyProtocol(YamlMapping proxy) {
        io.cleave.proxy.proxyprotocol.TrustedNetworks trusted = io.cleave.proxy.proxyprotocol.TrustedNetworks.NONE;
        Optional<String> text = proxy.string("proxy_protocol_networks");
        if (text.isPresent()) {
            try {
                trusted = io.cleave.proxy.proxyprotocol.TrustedNetworks.parse(text.get());
            } catch (IllegalArgumentException e) {
                proxy.problems().add(proxy.lineOf("proxy_protocol_networks"), proxy.field("proxy_protocol_networks"),
                        e.getMessage());
            }
        }
        boolean required = proxy.bool("proxy_protocol_required", false);
        if (required && trusted.isEmpty()) {
            proxy.problems().add(proxy.lineOf("proxy_protocol_required"), proxy.field("proxy_protocol_required"),
                    "requires a header from the networks proxy_protocol_networks lists, and it lists none");
        }
        return new io.cleave.proxy.proxyprotocol.ProxyProtocolPolicy(trusted, required);
    }

    private static TransportSetting transport(YamlMapping proxy) {
        Optional<String> text = proxy.string("transport");
        if (text.isEmpty()) {
            return TransportSetting.AUTO;
        }
        TransportSetting setting = TransportSetting.parse(text.get());
        if (setting == null) {
            proxy.problems().add(proxy.lineOf("transport"), proxy.field("transport"), "'" + text.get()
                    + "' is not a transport: expected one of " + TransportSetting.choices());
            return TransportSetting.AUTO;
        }
        return setting;
    }

    /** A size with a unit (64K, 16M), within {@code min..max}. */
    private static long sizeBetween(YamlMapping mapping, String key, long defaultValue, long min, long max) {
        long value = mapping.size(key, defaultValue);
        if (value < min || value > max) {
            mapping.problems().add(mapping.lineOf(key), mapping.field(key), ByteSize.format(value)
                    + " is out of range: expected " + ByteSize.format(min) + ".." + ByteSize.format(max));
            return defaultValue;
        }
        return value;
    }

    private static ProxyUser user(YamlMapping user, HostPort listen) {
        Problems problems = user.problems();
        Optional<String> name = user.string("name");
        boolean passwordGiven = user.keys().contains("password");
        Optional<String> password = user.string("password");
        Optional<String> nativeHash = user.string("mysql_native_password");
        Optional<String> sha2Hash = user.string("caching_sha2_password");
        Optional<String> host = user.string("host");
        List<String> listed = user.stringList("grants");
        List<String> grants = user.keys().contains("grants") ? listed : ProxyUser.ADMINISTRATOR;
        user.rejectUnknownKeys();
        if (name.isEmpty() || name.get().isBlank()) {
            problems.add(user.line(), user.field("name"), "missing: every user needs a name");
            return null;
        }
        if (password.isPresent() && !password.get().isEmpty()) {
            problems.add(user.lineOf("password"), user.field("password"), "a plain-text password is only allowed when empty: "
                    + "store its hash instead (run 'cleave hash-password' and paste the mysql_native_password / caching_sha2_password lines)");
            return null;
        }
        if (passwordGiven && (nativeHash.isPresent() || sha2Hash.isPresent())) {
            problems.add(user.lineOf("password"), user.field("password"),
                    "give either an empty password or password hashes, not both");
            return null;
        }
        if (!passwordGiven && nativeHash.isEmpty() && sha2Hash.isEmpty()) {
            problems.add(user.line(), user.field("name"), "user '" + name.get() + "' has no password: expected password: \"\" "
                    + "or at least one of mysql_native_password, caching_sha2_password");
            return null;
        }
        if (nativeHash.isPresent() && !PasswordHashes.isNativeHash(nativeHash.get())) {
            problems.add(user.lineOf("mysql_native_password"), user.field("mysql_native_password"),
                    "expected '*' followed by 40 hex digits, as in mysql.user (SHA1(SHA1(password)))");
        }
        if (sha2Hash.isPresent() && !PasswordHashes.isCachingSha2Hash(sha2Hash.get())) {
            problems.add(user.lineOf("caching_sha2_password"), user.field("caching_sha2_password"),
                    "expected MySQL's SHA-256 crypt form: '$A$005$', a 20-character salt and a 43-character hash");
        }
        if (passwordGiven && !listen.isLoopback()) {
            problems.add(user.lineOf("password"), user.field("password"), "user '" + name.get()
                    + "' has an empty password and proxy.listen " + listen + " is not a loopback address: "
                    + "set a password hash or listen on 127.0.0.1");
        }
        if (passwordGiven && host.isPresent()) {
            problems.add(user.lineOf("host"), user.field("host"), "an account with the empty password is made for the"
                    + " loopback addresses and localhost only: leave host out, or set a password hash");
        }
        if (host.isPresent() && (host.get().isEmpty() || host.get().length() > 255)) {
            problems.add(user.lineOf("host"), user.field("host"), "expected a host pattern such as '%', '10.0.0.%' or"
                    + " 'localhost'");
        }
        for (String grant : grants) {
            if (!grant.toUpperCase(java.util.Locale.ROOT).contains(" ON ")) {
                problems.add(user.lineOf("grants"), user.field("grants"), "'" + grant + "' is not what GRANT takes:"
                        + " expected privileges ON a level, e.g. 'SELECT, INSERT ON shop.*'");
            }
        }
        List<String> hosts = passwordGiven ? ProxyUser.LOOPBACK_HOSTS : List.of(host.orElse("%"));
        return new ProxyUser(name.get(), nativeHash, sha2Hash, hosts, grants);
    }
}
