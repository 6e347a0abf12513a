package io.cleave.proxy.frontend;

import io.cleave.proxy.accounts.Account;
import io.cleave.proxy.accounts.AccountDirectory;
import io.cleave.proxy.accounts.AccountName;
import io.cleave.proxy.accounts.Accounts;
import io.cleave.proxy.backend.BackendPool;
import io.cleave.proxy.backend.ShardLogin;
import io.cleave.proxy.backend.FakeShard;
import io.cleave.proxy.metrics.ProxyMetrics;
import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import io.cleave.proxy.protocol.packet.server.StmtPrepareOk;
import io.cleave.proxy.server.ProxyConfig;
import io.cleave.proxy.server.ProxyRuntime;
import io.cleave.proxy.server.ShardSlots;
import io.cleave.router.keyspace.KeyRange;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.shardmap.ShardMapHolder;
import io.cleave.router.topology.RoutineRule;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * A whole proxy for flow tests, without a network or a server: the real runtime, router and
 * client pipeline, over {@link FakeShard}s. Two shards; table {@code t} is sharded by {@code id}
 * in ranges (1-100 on shard 0, 101 and up on shard 1), {@code products} is a reference table and
 * {@code settings} an unsharded table on shard 1. {@link #run} sends a statement and answers
 * every command it causes on the shards until nothing moves, on the test's thread.
 */
final class FakeProxy {

    static final Capabilities CLIENT = Capabilities.PROXY_SERVER.without(Capabilities.SSL);
    /** The account every client logs in as: 'app'@'%' without a password. */
    static final AccountName APP = new AccountName("app", "%");
    /** Another account without a password, 'reader'@'%'. */
    static final AccountName READER = new AccountName("reader", "%");
    /** An account without a password holding every privilege on *.*, 'admin'@'%'. */
    static final AccountName ADMIN = new AccountName("admin", "%");

    final FakeShard[] shards;
    final ProxyRuntime runtime;
    private final List<EmbeddedClient> clients = new ArrayList<>();

    FakeProxy() {
        this(config -> config);
    }

    /** With the proxy's configuration changed by {@code configure} (limits, pool sizes). */
    FakeProxy(UnaryOperator<ProxyConfig> configure) {
        this(twoShards(Map.of()), configure);
    }

    /** The two-shard home with stored procedures declared to take a key of keyspace {@code customer}. */
    static FakeProxy withRoutines(RoutineRule... routines) {
        Map<String, RoutineRule> rules = new java.util.HashMap<>();
        for (RoutineRule r : routines) {
            rules.put(r.routine(), r);
        }
        return new FakeProxy(twoShards(rules), config -> config);
    }

    private static Topology twoShards(Map<String, RoutineRule> routines) {
        return new Topology(2,
                Map.of("customer", new Keyspace("customer", new RangeShardFunction(List.of(new KeyRange(1, 100),
                        new KeyRange(101, Long.MAX_VALUE))))),
                Map.of("t", new TableRule.Sharded("t", "customer", "id"), "products", new TableRule.Reference("products"),
                        "settings", new TableRule.Unsharded("settings", 1)), 0, routines);
    }

    private FakeProxy(Topology topology, UnaryOperator<ProxyConfig> configure) {
        shards = new FakeShard[topology.shardCount()];
        for (int i = 0; i < shards.length; i++) {
            shards[i] = new FakeShard(i);
        }
        runtime = new ProxyRuntime(configure.apply(ProxyConfig.defaults(new InetSocketAddress(0))),
                new Accounts("cleave", new AccountDirectory(List.of(Account.nativePassword(APP, ""),
                        Account.nativePassword(READER, ""), new Account(ADMIN, "mysql_native_password", "", false, -1, -1, 0,
                        false, "", -1L)), AccountDirectory.Limits.NONE)),
                topology, new ShardMapHolder(ShardMap.initial(topology, Map.of())), ShardSlots.of(shards), ProxyMetrics.NONE,
                null, 1);
    }

    /** A home of one shard: table {@code t} sharded by {@code id} as in the two-shard one, all on shard 0. */
    static FakeProxy oneShard() {
        return new FakeProxy(new Topology(1,
                Map.of("customer", new Keyspace("customer", new RangeShardFunction(List.of(new KeyRange(1, Long.MAX_VALUE))))),
                Map.of("t", new TableRule.Sharded("t", "customer", "id")), 0), config -> config);
    }

    FakeShard shard(int i) {
        return shards[i];
    }

    EmbeddedClient connect() {
        return connect(CLIENT);
    }

    EmbeddedClient connect(Capabilities capabilities) {
        return connect(capabilities, APP.user());
    }

    /** A client logged in as {@code user} (an account without a password), in database app. */
    EmbeddedClient connect(Capabilities capabilities, String user) {
        EmbeddedClient client = new EmbeddedClient(runtime, capabilities, user, "app", this::pump);
        clients.add(client);
        // What the login asked the shards (whether the database exists) is not the test's business.
        for (FakeShard s : shards) {
            s.forget();
        }
        return client;
    }

    /** A client logged in as 'app' on {@code channel}, which runs the proxy's client pipeline. */
    EmbeddedClient connect(EmbeddedChannel channel) {
        EmbeddedClient client = new EmbeddedClient(channel, CLIENT, APP.user(), "app", this::pump);
        clients.add(client);
        for (FakeShard s : shards) {
            s.forget();
        }
        return client;
    }

    /** Sends {@code sql}, lets the shards answer everything it causes, and returns the client's reply. */
    ClientReply run(EmbeddedClient client, String sql) {
        client.query(sql);
        pump();
        return client.reply();
    }

    /** Prepares {@code sql} (on a shard, or in the proxy for what it runs itself); returns the client's PREPARE_OK. */
    StmtPrepareOk prepare(EmbeddedClient client, String sql) {
        client.send(CommandCode.STMT_PREPARE, sql.getBytes(StandardCharsets.UTF_8));
        pump();
        List<ByteBuf> frames = client.frames();
        try {
            return StmtPrepareOk.decode(Frames.payload(frames.get(0)));
        } finally {
            EmbeddedClient.release(frames);
        }
    }

    /** Answers the shards' waiting commands until no more come. */
    void pump() {
        pump(null);
    }

    /** Answers the shards' waiting commands until no more come, also for a client still logging in. */
    void pump(io.netty.channel.embedded.EmbeddedChannel loggingIn) {
        for (int round = 0; round < 1000; round++) {
            int answered = 0;
            for (FakeShard s : shards) {
                answered += s.pump();
            }
            for (EmbeddedClient c : clients) {
                c.channel().runPendingTasks();
            }
            if (loggingIn != null) {
                loggingIn.runPendingTasks();
            }
            if (answered == 0 && !anyWaiting()) {
                // Nothing answered, and nothing the clients' tasks just sent (the end of a pass flushes).
                return;
            }
        }
        throw new AssertionError("the shards were still being asked after 1000 rounds");
    }

    private boolean anyWaiting() {
        for (FakeShard s : shards) {
            if (s.hasWaitingCommands()) {
                return true;
            }
        }
        return false;
    }

    /** The backend login of clients of {@code capabilities} (the account 'app'@'%' over the shards' socket). */
    ShardLogin login(Capabilities capabilities) {
        return runtime.accounts().logins().account(APP.user(), APP.toString(), false, capabilities.responseProfile());
    }

    /** The backend pool of {@code shard} that serves {@code client}'s event loop. */
    BackendPool pool(EmbeddedClient client, int shard) {
        return runtime.loop(client.channel().eventLoop()).pool(shard);
    }
}
