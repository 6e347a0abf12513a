package io.cleave.bench.compare;

import java.util.Map;

/**
 * One system to measure: a home of some number of shards, reached directly, through an L4 relay
 * or through the proxy, over TCP or a Unix socket, with settings of its {@code proxy:} section
 * beyond the defaults (e.g. the deadlock detector off); configurations that differ only in those
 * settings run on homes of their own, the others share one home. {@code account}: the account the
 * clients log in to the proxy with (null: root).
 */
public record Configuration(String label, int shards, Access access, Map<String, String> proxyOptions,
                            Transport transport, ClientAccount account) {

    public Configuration {
        if (access != Access.PROXY && shards != 1) {
            throw new IllegalArgumentException(access.name().toLowerCase(java.util.Locale.ROOT)
                + " access means one instance, not " + shards + " shards");
        }
        // Results written before proxy options or transports existed read back without them.
        proxyOptions = proxyOptions == null ? Map.of() : Map.copyOf(proxyOptions);
        transport = transport == null ? Transport.TCP : transport;
    }

    public Configuration(String label, int shards, Access access, Map<String, String> proxyOptions, Transport transport) {
        this(label, shards, access, proxyOptions, transport, null);
    }

    public Configuration(String label, int shards, Access access, Map<String, String> proxyOptions) {
        this(label, shards, access, proxyOptions, Transport.TCP);
    }

    public Configuration(String label, int shards, Access access) {
        this(label, shards, access, Map.of());
    }

    public static Configuration direct() {
        return new Configuration("1 instance, direct", 1, Access.DIRECT);
    }

    public static Configuration proxy(int shards) {
        return new Configuration(shards + (shards == 1 ? " shard" : " shards") + ", proxy", shards, Access.PROXY);
    }

    /** The three ways to one shard, the client over {@code transport}: direct, HAProxy, Cleave. */
    public static Configuration over(Access access, Transport transport) {
        String what = switch (access) {
            case DIRECT -> "direct";
            case RELAY -> "HAProxy relay";
            case PROXY -> "Cleave proxy";
        };
        return new Configuration(what + ", client over " + transport.label(), 1, access, Map.of(), transport);
    }

    /** The same home with {@code options} in its proxy section, under another label. */
    public Configuration with(String newLabel, Map<String, String> options) {
        return new Configuration(newLabel, shards, access, options, transport, account);
    }

    /** The same home, its clients logging in as {@code client}, under another label. */
    public Configuration as(String newLabel, ClientAccount client) {
        return new Configuration(newLabel, shards, access, proxyOptions, transport, client);
    }
}
