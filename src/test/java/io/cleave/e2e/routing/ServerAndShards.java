package io.cleave.e2e.routing;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.daemon.ShardEndpoint;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * The two sides of a differential test, started together: one plain MariaDB (a one-shard home
 * without the proxy) and a sharded home behind the proxy, with the same server options.
 */
final class ServerAndShards implements AutoCloseable {

    private final CleaveTestHome plainHome;
    private final CleaveTestHome shardedHome;
    private RunningDaemon plain;
    private RunningDaemon sharded;

    private ServerAndShards(CleaveTestHome plainHome, CleaveTestHome shardedHome) {
        this.plainHome = plainHome;
        this.shardedHome = shardedHome;
    }

    /** Starts one plain server and {@code shards} shards configured by {@code shardingYaml}. */
    static ServerAndShards start(int shards, String shardingYaml, Map<String, String> serverOptions) {
        return start(shards, shardingYaml, serverOptions, Map.of());
    }

    /** As {@link #start(int, String, Map)}, with options under the sharded side's {@code proxy:}. */
    static ServerAndShards start(int shards, String shardingYaml, Map<String, String> serverOptions,
                                 Map<String, Object> proxyOptions) {
        CleaveTestHome.Builder plain = CleaveTestHome.builder().shards(1).withoutProxy();
        CleaveTestHome.Builder sharded = CleaveTestHome.builder().shards(shards).extraYaml(shardingYaml);
        proxyOptions.forEach(sharded::proxyOption);
        serverOptions.forEach((name, value) -> {
            plain.serverOption(name, value);
            sharded.serverOption(name, value);
        });
        ServerAndShards both = new ServerAndShards(plain.create(), sharded.create());
        try {
            CompletableFuture<RunningDaemon> plainStart = CompletableFuture.supplyAsync(both.plainHome::start);
            both.sharded = both.shardedHome.start();
            both.plain = plainStart.join();
            return both;
        } catch (RuntimeException e) {
            both.close();
            throw e;
        }
    }

    RunningDaemon plain() {
        return plain;
    }

    RunningDaemon sharded() {
        return sharded;
    }

    /** A connection to the plain server (no schema selected). */
    Connection plainConnection(String extra) throws SQLException {
        ShardEndpoint e = plain.shards().get(0);
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + e.port()
                + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true&" + extra, e.user(), e.secret());
    }

    /** A connection to the plain server as {@code user} (no schema selected). */
    Connection plainConnection(String user, String password, String extra) throws SQLException {
        ShardEndpoint e = plain.shards().get(0);
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + e.port()
                + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true&" + extra, user, password);
    }

    /** A connection through the proxy as {@code user} (no schema selected). */
    Connection proxyConnection(String user, String password, String extra) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + sharded.proxyPort()
                + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true&" + extra, user, password);
    }

    /** A connection through the proxy (no schema selected). */
    Connection proxyConnection(String extra) throws SQLException {
        return sharded.connectProxy("", extra);
    }

    @Override
    public void close() {
        for (AutoCloseable c : new AutoCloseable[] {sharded, plain, shardedHome, plainHome}) {
            try {
                if (c != null) {
                    c.close();
                }
            } catch (Exception ignored) {
                // best effort: the homes kill whatever is left
            }
        }
    }
}
