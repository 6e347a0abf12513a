package io.cleave.manager.standby.relay;

import io.cleave.manager.config.HostPort;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.group.ChannelGroup;
import io.netty.channel.group.DefaultChannelGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.util.concurrent.GlobalEventExecutor;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.util.concurrent.TimeUnit;

/**
 * A standby's proxy port while the other home is the primary: every client connection is relayed to the primary's
 * proxy ({@link RelayedConnection}), so applications on this host have a database to connect to before any
 * promotion, and nothing about moves, holds, fences or cross-shard commits changes (the primary's proxy does all of
 * it, by the primary's own shard map). Where the primary's proxy is cannot be known before its daemon answers this
 * home's first asking ({@link #target(HostPort)}); until then, and while it cannot be reached, clients get an error
 * packet saying so. Stopped when this home's own proxy takes the port (a promotion or a switchover's take-over).
 */
public final class PrimaryProxyRelay implements AutoCloseable {

    private static final Logger log = LoggerFactory.getLogger(PrimaryProxyRelay.class);

    private final HostPort listen;
    private final RelayCounters counters = new RelayCounters();
    private volatile HostPort target;
    private volatile String problem;
    /** Why the primary's proxy cannot be reached from here at all, known without trying; null when it may be. */
    private volatile String notReachable;
    /** While listening: its loops, the listening channel and the relayed connections; null while stopped. */
    private volatile Listening listening;

    /**
     * The listening channel has a loop of its own: a stop waits for that loop to end, so the port is free (the channel's
     * socket closed) before this home's proxy binds it. A channel closed on a loop that lives on frees its socket only
     * at that loop's next select.
     */
    private record Listening(EventLoopGroup acceptor, EventLoopGroup loops, Channel server, ChannelGroup connections) {
    }

    /** The relay of {@code listen} (the home's {@code proxy.listen}), stopped until {@link #start()}. */
    public PrimaryProxyRelay(HostPort listen) {
        this.listen = listen;
    }

    /**
     * Listens (again) and relays once the primary's proxy is known.
     *
     * @throws IllegalStateException when the port cannot be listened on (the message says which and why)
     */
    public synchronized void start() {
        if (listening != null) {
            return;
        }
        EventLoopGroup acceptor = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        EventLoopGroup loops = new MultiThreadIoEventLoopGroup(1, NioIoHandler.newFactory());
        ChannelGroup connections = new DefaultChannelGroup(GlobalEventExecutor.INSTANCE);
        try {
            Channel server = new ServerBootstrap().group(acceptor, loops).channel(NioServerSocketChannel.class)
                    .option(ChannelOption.SO_REUSEADDR, true)
                    .childOption(ChannelOption.TCP_NODELAY, true)
                    .childOption(ChannelOption.AUTO_READ, false)
                    .childHandler(new ChannelInitializer<>() {
                        @Override
                        protected void initChannel(Channel ch) {
                            connections.add(ch);
                            ch.pipeline().addLast(new RelayedConnection(PrimaryProxyRelay.this, counters));
                        }
                    })
                    .bind(new InetSocketAddress(listen.host(), listen.port())).syncUninterruptibly().channel();
            listening = new Listening(acceptor, loops, server, connections);
            log.info("standby: clients of {} are relayed to the primary's proxy{}", listen,
                    target == null ? " once it is known" : " at " + target);
        } catch (RuntimeException e) {
            acceptor.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            loops.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IllegalStateException("the standby cannot listen on proxy.listen " + listen + ": " + e.getMessage(), e);
        }
    }

    /** Where the primary's proxy listens, as the primary says (asked every 2 s); connections from now on go there. */
    public void target(HostPort primaryProxy) {
        target(primaryProxy, null);
    }

    /**
     * As above; {@code notReachable}: why this standby cannot reach it at all (it listens on the loopback address of
     * another host), and then clients are refused with that reason without a try; null when it may be reached.
     */
    public void target(HostPort primaryProxy, String notReachable) {
        if (notReachable != null && !notReachable.equals(this.notReachable) && listening != null) {
            log.warn("standby: {}", notReachable);
        }
        this.notReachable = notReachable;
        HostPort before = target;
        if (!primaryProxy.equals(before)) {
            // Said by the primary to any standby, one whose own proxy serves (a forwarding old primary) too.
            if (listening != null) {
                log.info("standby: the primary's proxy is at {}: clients of {} are relayed there", primaryProxy, listen);
            }
            problem = null;
        }
        target = primaryProxy;
    }

    HostPort target() {
        return target;
    }

    String notReachable() {
        return notReachable;
    }

    void reached() {
        problem = null;
    }

    void unreachable(String why) {
        if (!why.equals(problem)) {
            log.warn("standby: {}", why);
        }
        problem = why;
    }

    /**
     * Stops listening (this home's own proxy takes the port next). {@code dropConnections}: the relayed connections
     * end too (a promotion: the primary is gone or fenced, they would only wait or fail); else they go on until they
     * close (a switchover: the old primary's proxy forwards them to this home's shards).
     */
    public synchronized void stop(boolean dropConnections) {
        Listening l = listening;
        if (l == null) {
            return;
        }
        listening = null;
        l.server().close().syncUninterruptibly();
        l.acceptor().shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(10, TimeUnit.SECONDS);
        int open = l.connections().size();
        if (dropConnections) {
            l.connections().close().awaitUninterruptibly(5, TimeUnit.SECONDS);
            l.loops().shutdownGracefully(0, 1, TimeUnit.SECONDS);
        } else {
            // The loop lives on for the connections left, and ends once the last one closed.
            l.connections().newCloseFuture().addListener(f -> l.loops().shutdownGracefully(0, 1, TimeUnit.SECONDS));
        }
        log.info("standby relay on {} stopped ({} relayed connection(s) {})", listen, open,
                dropConnections ? "closed" : "left to end on their own");
    }

    public boolean listening() {
        return listening != null;
    }

    @Override
    public void close() {
        stop(true);
    }

    public RelayReport report() {
        HostPort t = target;
        String never = notReachable;
        String state = listening == null ? "stopped" : t == null || problem != null || never != null ? "refusing"
                : "relaying";
        String why = t == null ? "the primary's proxy address is not known yet (asked every 2 s)"
                : never != null ? never : problem;
        return new RelayReport(listen.toString(), t == null ? null : t.toString(), state, "refusing".equals(state)
                ? why : null, counters.active.get(), counters.relayed.sum(), counters.refused.sum(),
                counters.bytesToPrimary.sum(), counters.bytesToClients.sum());
    }

    /** {@code cleave_standby_relay_*}: connections open and relayed, refusals, bytes each way. */
    public void bind(MeterRegistry registry) {
        Gauge.builder("cleave_standby_relay_connections", counters.active, java.util.concurrent.atomic.AtomicLong::get)
                .description("client connections the standby's port relays to the primary's proxy now")
                .register(registry);
        FunctionCounter.builder("cleave_standby_relay_connections_relayed", counters.relayed, java.util.concurrent.atomic.LongAdder::sum)
                .description("client connections relayed to the primary's proxy").register(registry);
        FunctionCounter.builder("cleave_standby_relay_connections_refused", counters.refused, java.util.concurrent.atomic.LongAdder::sum)
                .description("client connections refused: the primary's proxy unknown or not reachable").register(registry);
        FunctionCounter.builder("cleave_standby_relay_bytes", counters.bytesToPrimary, java.util.concurrent.atomic.LongAdder::sum)
                .tag("direction", "to_primary").description("bytes relayed between clients and the primary's proxy")
                .register(registry);
        FunctionCounter.builder("cleave_standby_relay_bytes", counters.bytesToClients, java.util.concurrent.atomic.LongAdder::sum)
                .tag("direction", "to_clients").description("bytes relayed between clients and the primary's proxy")
                .register(registry);
        Gauge.builder("cleave_standby_relay_reachable", this, r -> {
            RelayReport now = r.report();
            return now.state().equals("relaying") ? 1 : 0;
        }).description("1 while the standby's port relays to the primary's proxy; 0 while it refuses clients or is stopped")
                .register(registry);
    }
}
