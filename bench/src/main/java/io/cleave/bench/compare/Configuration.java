package io.cleave.bench.compare;

/** One system to measure: a home of some number of shards, reached directly or through the proxy. */
public record Configuration(String label, int shards, Access access) {

    public Configuration {
        if (access == Access.DIRECT && shards != 1) {
            throw new IllegalArgumentException("direct access means one instance, not " + shards + " shards");
        }
    }

    public static Configuration direct() {
        return new Configuration("1 instance, direct", 1, Access.DIRECT);
    }

    public static Configuration proxy(int shards) {
        return new Configuration(shards + (shards == 1 ? " shard" : " shards") + ", proxy", shards, Access.PROXY);
    }
}
