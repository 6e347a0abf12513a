package io.cleave.manager.config;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;

/**
 * Where a home listens and how other hosts reach it: what a standby on another host needs from its primary.
 *
 * @param shardBind     {@code server.bind_address}: the IP address the shards listen on besides loopback (they keep
 *                      127.0.0.1 and their Unix socket for the proxy and local tools); 127.0.0.1 by default,
 *                      0.0.0.0 (or ::) for every address of the host
 * @param advertiseHost {@code server.advertise_host}: the host or address other hosts reach this home's shards and
 *                      admin API at; when absent, the bind address (needed when that is a wildcard)
 * @param adminHost     the host part of {@code admin.listen}: 127.0.0.1 by default
 * @param replicationTls {@code server.replication_tls}: whether replication between the pair's shards uses TLS
 */
public record ListenAddresses(String shardBind, Optional<String> advertiseHost, String adminHost,
                              ReplicationTls replicationTls) {

    public static final String LOOPBACK = "127.0.0.1";
    public static final ListenAddresses DEFAULT = new ListenAddresses(LOOPBACK, Optional.empty(), LOOPBACK);

    /** With the replication TLS default of the bind address ({@link ReplicationTls#defaultFor}). */
    public ListenAddresses(String shardBind, Optional<String> advertiseHost, String adminHost) {
        this(shardBind, advertiseHost, adminHost, ReplicationTls.defaultFor(shardBind));
    }

    public ListenAddresses withReplicationTls(ReplicationTls tls) {
        return new ListenAddresses(shardBind, advertiseHost, adminHost, tls);
    }

    /**
     * The names and addresses this home's shards are reached at, for their certificate: loopback's, the bind address
     * (unless a wildcard) and the advertised host.
     */
    public java.util.List<String> shardNames() {
        java.util.Set<String> names = new java.util.LinkedHashSet<>(java.util.List.of("localhost", LOOPBACK));
        if (!isWildcard(shardBind)) {
            names.add(shardBind);
        }
        advertiseHost.ifPresent(names::add);
        return java.util.List.copyOf(names);
    }

    /** The shards' {@code bind_address}: loopback always (a comma list: MariaDB 10.11+, MySQL 8.0.13+), plus the configured one. */
    public String shardBindOption() {
        if (isLoopback(shardBind) || isWildcard(shardBind)) {
            return isLoopback(shardBind) ? LOOPBACK : shardBind;
        }
        return LOOPBACK + "," + shardBind;
    }

    /** The host a replica on another host connects to, the bind address unless advertised otherwise. */
    public String shardHost() {
        return advertiseHost.orElse(isWildcard(shardBind) ? LOOPBACK : shardBind);
    }

    /** The admin URL this daemon names in etcd and to its peer. */
    public String adminUrl(int port) {
        String host = isWildcard(adminHost) ? advertiseHost.orElse(LOOPBACK) : adminHost;
        return "http://" + (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
    }

    /** True when the shards or the admin API can be reached from other hosts. */
    public boolean reachableFromOtherHosts() {
        return !isLoopback(shardBind) || !isLoopback(adminHost);
    }

    /** True for 0.0.0.0 and ::, which listen on every address of the host. */
    public static boolean isWildcard(String address) {
        return address.equals("0.0.0.0") || address.equals("::") || address.equals("*");
    }

    public static boolean isLoopback(String address) {
        try {
            return address.equalsIgnoreCase("localhost") || InetAddress.getByName(address).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    /** An IP address literal (never looked up in DNS), or empty with what is wrong. */
    static Optional<String> addressProblem(String text) {
        boolean v4 = text.matches("\\d{1,3}(\\.\\d{1,3}){3}");
        boolean v6 = text.contains(":") && text.matches("[0-9A-Fa-f:.]+");
        if (!v4 && !v6) {
            return Optional.of("'" + text + "' is not an IP address: expected e.g. 10.0.0.1, 0.0.0.0 (every address) or 127.0.0.1");
        }
        try {
            InetAddress.getByName(text); // a literal: parsed, not resolved
            return Optional.empty();
        } catch (UnknownHostException e) {
            return Optional.of("'" + text + "' is not an IP address: " + e.getMessage());
        }
    }
}
