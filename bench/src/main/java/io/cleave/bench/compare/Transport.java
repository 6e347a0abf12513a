package io.cleave.bench.compare;

/**
 * How the benchmark client reaches its endpoint (the shard, the relay or the proxy). Loopback TCP
 * costs noticeably more than a Unix socket on both ends, so runs over each are kept apart.
 */
public enum Transport {
    TCP("TCP"),
    UNIX("Unix socket");

    private final String label;

    Transport(String label) {
        this.label = label;
    }

    public String label() {
        return label;
    }
}
