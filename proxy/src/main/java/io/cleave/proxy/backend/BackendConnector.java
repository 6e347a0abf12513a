package io.cleave.proxy.backend;

import io.cleave.proxy.protocol.PacketFrameDecoder;
import io.cleave.proxy.transport.Transport;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.PooledByteBufAllocator;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoop;
import io.netty.channel.unix.DomainSocketAddress;
import io.netty.util.concurrent.Future;
import io.netty.util.concurrent.Promise;

import java.net.SocketAddress;

/**
 * Opens authenticated connections to one shard on a given event loop, over its Unix socket when
 * it has one and the loops' transport has Unix sockets, else over TCP; a login that goes by the
 * client's address always over TCP (a server keeps a Unix socket connection's host as localhost
 * even after a PROXY header).
 */
public final class BackendConnector implements ShardConnector {

    private final ShardEndpoint endpoint;
    /** The transport of the loops connections are made on: a channel registers only with its own kind of loop. */
    private final Transport transport;
    /** Set once from the shard's max_prepared_stmt_count before clients are served. */
    private volatile int statementCacheSize;
    private final int connectTimeoutMillis;

    private final boolean missing;

    public BackendConnector(ShardEndpoint endpoint, Transport transport, int statementCacheSize,
                            int connectTimeoutMillis) {
        this(endpoint, transport, statementCacheSize, connectTimeoutMillis, false);
    }

    private BackendConnector(ShardEndpoint endpoint, Transport transport, int statementCacheSize,
                             int connectTimeoutMillis, boolean missing) {
        this.endpoint = endpoint;
        this.transport = transport;
        this.statementCacheSize = statementCacheSize;
        this.connectTimeoutMillis = connectTimeoutMillis;
        this.missing = missing;
    }

    /** Stands for a shard index nothing answers to (a shard scaled away): every connection fails, naming it. */
    public static BackendConnector missing(int shard) {
        return new BackendConnector(new ShardEndpoint(shard, null, java.net.InetSocketAddress.createUnresolved("none", 0),
                "", new byte[0]), Transport.NIO, 1, 0, true);
    }

    /** How many prepared statements each new connection keeps before closing the least recently used. */
    public void statementCacheSize(int size) {
        this.statementCacheSize = size;
    }

    public int statementCacheSize() {
        return statementCacheSize;
    }

    @Override
    public ShardEndpoint endpoint() {
        return endpoint;
    }

    @Override
    public Future<BackendConnection> connect(EventLoop loop, ShardLogin login, int generation) {
        Promise<BackendConnection> promise = loop.newPromise();
        if (missing) {
            promise.setFailure(new java.io.IOException("shard " + endpoint.shard() + " is not part of this Cleave"));
            return promise;
        }
        boolean unix = transport.hasDomainSockets() && endpoint.socket() != null && !login.proxiedTo(endpoint);
        Class<? extends Channel> type = unix ? transport.domainChannel() : transport.channel();
        if (!unix && endpoint.tcp() == null) {
            promise.setFailure(new IllegalStateException(endpoint.describe()
                    + " has only a Unix socket, which needs the epoll or io_uring transport (Linux), not " + transport));
            return promise;
        }
        SocketAddress address = unix ? new DomainSocketAddress(endpoint.socket().toFile()) : endpoint.tcp();
        Bootstrap bootstrap = new Bootstrap()
                .group(loop)
                .channel(type)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, connectTimeoutMillis)
                // The clients' allocator, as relayed frames move from these channels to theirs: Netty 4.2
                // defaults to its adaptive allocator, the proxy keeps 4.1's pooled one on both sides.
                .option(ChannelOption.ALLOCATOR, PooledByteBufAllocator.DEFAULT)
                .handler(new ChannelInitializer<Channel>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast("frames", new PacketFrameDecoder());
                        ch.pipeline().addLast("auth", new BackendAuthHandler(endpoint, login, generation, statementCacheSize,
                                promise));
                    }
                });
        if (!unix) {
            bootstrap.option(ChannelOption.TCP_NODELAY, true);
        }
        ChannelFuture connected = bootstrap.connect(address);
        connected.addListener(f -> {
            if (!f.isSuccess()) {
                Throwable cause = f.cause();
                // Some transport failures (a Unix socket whose server is gone) carry no message.
                String why = cause.getMessage() != null ? cause.getMessage()
                        : cause.getClass().getSimpleName() + " (the shard is not accepting connections)";
                promise.tryFailure(new java.io.IOException("cannot connect to " + endpoint.describe() + ": " + why,
                        cause));
            }
        });
        return promise;
    }
}
