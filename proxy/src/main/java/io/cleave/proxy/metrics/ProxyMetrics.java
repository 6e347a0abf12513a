package io.cleave.proxy.metrics;

import io.cleave.proxy.backend.PoolMetrics;
import io.cleave.proxy.protocol.packet.client.CommandCode;

/**
 * What the proxy measures. Every method defaults to doing nothing, so code paths call it
 * unconditionally and a proxy without a registry pays nothing.
 */
public interface ProxyMetrics extends PoolMetrics {

    ProxyMetrics NONE = new ProxyMetrics() {
    };

    default void command(CommandCode command, RouteKind route) {
    }

    default void shardLatency(int shard, long nanos) {
    }

    default void error(int code) {
    }

    default void clientConnected() {
    }

    default void clientDisconnected() {
    }

    default void authFailed(String user) {
    }
}
