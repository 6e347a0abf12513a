package io.cleave.manager.standby;

import io.cleave.manager.config.HostPort;
import io.cleave.manager.config.ListenAddresses;
import org.yaml.snakeyaml.DumperOptions;
import org.yaml.snakeyaml.Yaml;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A standby's config: the primary's, restored, with the standby's own addresses, server ids apart
 * from the primary's (a replica skips events carrying its own server_id), and the replica settings
 * every shard starts with: read-only, strict GTIDs, semi-sync acknowledgements, and replicated
 * transactions written to its own binlog (so the old primary can replicate from it after a promotion).
 *
 * @param basePort     the standby's shards listen on basePort + i
 * @param adminPort    the standby daemon's admin API
 * @param proxyListen  where the standby's proxy will listen once it is promoted
 * @param serverIdBase the standby's shards' server_id base; 0: the primary's + 1000
 * @param listen       the standby's own listen and advertised addresses (the primary's name the primary's host)
 */
public record StandbyConfig(int basePort, int adminPort, String proxyListen, int serverIdBase, ListenAddresses listen) {

    /** A standby on loopback addresses. */
    public StandbyConfig(int basePort, int adminPort, String proxyListen, int serverIdBase) {
        this(basePort, adminPort, proxyListen, serverIdBase, ListenAddresses.DEFAULT);
    }

    /** This standby with the pair's replication TLS ({@code server.replication_tls} in its config). */
    public StandbyConfig withReplicationTls(io.cleave.manager.config.ReplicationTls tls) {
        return new StandbyConfig(basePort, adminPort, proxyListen, serverIdBase, listen.withReplicationTls(tls));
    }

    /**
     * The addresses and server ids {@code config} gives its home, e.g. an old primary's own, which it keeps when it is
     * rebuilt as the standby of the home that took over from it.
     */
    public static StandbyConfig of(io.cleave.manager.config.CleaveConfig config) {
        return new StandbyConfig(config.server().basePort(), config.adminPort(), config.proxy().listen().toString(),
                config.server().serverIdBase(), config.listen());
    }

    /**
     * How long a replica's IO thread waits on its primary before it gives the connection up (slave_net_timeout; the
     * primary's heartbeat comes every half of it). The server's 60 s also bounds each attempt to connect again, which
     * STOP SLAVE cannot interrupt: a promotion stopping a replica that was reconnecting to a primary just lost waited
     * out most of it once (56 s). Set on both homes of a pair, so a shard that changes role has it.
     */
    public static final int NET_TIMEOUT_SECONDS = 10;

    static final Map<String, String> REPLICA_OPTIONS = Map.of(
            "slave_net_timeout", String.valueOf(NET_TIMEOUT_SECONDS),
            "read_only", "ON",
            "gtid_strict_mode", "ON",
            "rpl_semi_sync_slave_enabled", "ON",
            "log_slave_updates", "ON");

    /** {@code restored} (a config as YAML) with this standby's settings over it. */
    public String apply(String restored) {
        Object o = new Yaml().load(restored);
        @SuppressWarnings("unchecked")
        Map<String, Object> root = o instanceof Map<?, ?> ? (Map<String, Object>) o : new LinkedHashMap<>();
        Map<String, Object> server = mapping(root, "server");
        server.put("base_port", basePort);
        server.put("server_id_base", serverIdBase);
        server.remove("advertise_host");
        server.put("bind_address", listen.shardBind());
        listen.advertiseHost().ifPresent(h -> server.put("advertise_host", h));
        server.put("replication_tls", listen.replicationTls().configName());
        mapping(server, "options").putAll(REPLICA_OPTIONS);
        Map<String, Object> admin = mapping(root, "admin");
        admin.remove("port");
        admin.remove("listen");
        if (listen.adminHost().equals(ListenAddresses.LOOPBACK)) {
            admin.put("port", adminPort);
        } else {
            admin.put("listen", new HostPort(listen.adminHost(), adminPort).toString());
        }
        mapping(root, "proxy").put("listen", proxyListen);
        DumperOptions options = new DumperOptions();
        options.setDefaultFlowStyle(DumperOptions.FlowStyle.BLOCK);
        return "# Made by 'cleave standby': the primary's settings with this standby's addresses and replica options.\n"
                + new Yaml(options).dump(root);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> mapping(Map<String, Object> parent, String key) {
        Object o = parent.get(key);
        if (o instanceof Map<?, ?>) {
            return (Map<String, Object>) o;
        }
        Map<String, Object> m = new LinkedHashMap<>();
        parent.put(key, m);
        return m;
    }
}
