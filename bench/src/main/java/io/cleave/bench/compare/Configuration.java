package io.cleave.bench.compare;

import java.util.Map;

/**
 * One system to measure: a home of some number of shards, reached directly or through the proxy,
 * with settings of its {@code proxy:} section beyond the defaults (e.g. the deadlock detector
 * off); configurations that differ only in those run on homes of their own.
 */
public record Configuration(String label, int shards, Access access, Map<String, String> proxyOptions) {

    public Configuration {
        if (access == Access.DIRECT && shards != 1) {
            throw new IllegalArgumentException("direct access means one instance, not " + shards + " shards");
        }
        // Results written before proxy options existed read back without them.
        proxyOptions = proxyOptions == null ? Map.of() : Map.copyOf(proxyOptions);
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

    /** The same home with {@code options} in its proxy section, under another label. */
    public Configuration with(String newLabel, Map<String, String> options) {
        return new Configuration(newLabel, shards, access, options);
    }
}
