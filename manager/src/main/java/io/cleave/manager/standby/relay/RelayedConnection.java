package io.cleave.manager.standby.relay;

import io.cleave.manager.config.HostPort;
import io.netty.bootstrap.Bootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.ChannelFutureListener;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyMessageEncoder;
import io.netty.handler.codec.haproxy.HAProxyProtocolVersion;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;

import java.net.Inet6Address;
import java.net.InetSocketAddress;

/**
 * One client of the standby's port, relayed byte for byte to the primary's proxy, which does the routing, holds,
 * fences and logins. The connection to the primary is made on the client's event loop, and opens with a PROXY
 * protocol header naming the client, so the primary's proxy (which trusts this home's address) sees the client's own
 * address. Each side is read again only once what it sent was written to the other (backpressure, as Netty's proxy
 * example does). A primary's proxy that cannot be reached gets the client an error packet, not a silent close.
 */
final class RelayedConnection extends ChannelInboundHandlerAdapter {

    private static final int CONNECT_TIMEOUT_MILLIS = 3_000;

    private final PrimaryProxyRelay relay;
    private final RelayCounters counters;
    private Channel primary;

    RelayedConnection(PrimaryProxyRelay relay, RelayCounters counters) {
        this.relay = relay;
        this.counters = counters;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) {
        Channel client = ctx.channel();
        HostPort target = relay.target();
        if (target == null) {
            counters.refused.increment();
            RelayRefusal.send(client, "this Cleave home is a standby and does not know its primary's proxy address"
                    + " yet (it asks the primary every 2 s); connect to the primary's proxy");
            return;
        }
        String never = relay.notReachable();
        if (never != null) {
            counters.refused.increment();
            RelayRefusal.send(client, "this Cleave home is a standby, and " + never);
            return;
        }
        counters.active.incrementAndGet();
        ChannelFuture connect = new Bootstrap().group(client.eventLoop()).channel(NioSocketChannel.class)
                .option(ChannelOption.CONNECT_TIMEOUT_MILLIS, CONNECT_TIMEOUT_MILLIS)
                .option(ChannelOption.TCP_NODELAY, true)
                .option(ChannelOption.AUTO_READ, false)
                .handler(new ChannelInitializer<>() {
                    @Override
                    protected void initChannel(Channel ch) {
                        ch.pipeline().addLast(HAProxyMessageEncoder.INSTANCE, new ToClient(client, counters));
                    }
                })
                .connect(target.host(), target.port());
        primary = connect.channel();
        connect.addListener((ChannelFutureListener) f -> {
            if (!f.isSuccess()) {
                String why = "the primary's proxy at " + target + " is not reachable from this standby: "
                        + f.cause().getMessage();
                relay.unreachable(why);
                counters.refused.increment();
                RelayRefusal.send(client, "this Cleave home is a standby, and " + why);
                return;
            }
            if (!client.isActive()) {
                primary.close(); // the client left while the connection was being made
                return;
            }
            relay.reached();
            counters.relayed.increment();
            primary.writeAndFlush(header(client));
            primary.read();
            client.read();
        });
    }

    /** A version 2 header: the client's address and port, and where it connected to on this home. */
    private static HAProxyMessage header(Channel client) {
        InetSocketAddress from = (InetSocketAddress) client.remoteAddress();
        InetSocketAddress to = (InetSocketAddress) client.localAddress();
        boolean v6 = from.getAddress() instanceof Inet6Address;
        String destination = (to.getAddress() instanceof Inet6Address) == v6 ? to.getAddress().getHostAddress()
                : v6 ? "::1" : "127.0.0.1";
        String source = from.getAddress().getHostAddress();
        int zone = source.indexOf('%');
        source = zone < 0 ? source : source.substring(0, zone);
        zone = destination.indexOf('%');
        destination = zone < 0 ? destination : destination.substring(0, zone);
        return new HAProxyMessage(HAProxyProtocolVersion.V2, HAProxyCommand.PROXY,
                v6 ? HAProxyProxiedProtocol.TCP6 : HAProxyProxiedProtocol.TCP4, source, destination, from.getPort(),
                to.getPort());
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        pass((ByteBuf) msg, ctx.channel(), primary, counters.bytesToPrimary);
    }

    /** Writes what {@code from} sent to {@code to}, and reads {@code from} again once it is written. */
    static void pass(ByteBuf bytes, Channel from, Channel to, java.util.concurrent.atomic.LongAdder counted) {
        counted.add(bytes.readableBytes());
        to.writeAndFlush(bytes).addListener((ChannelFutureListener) f -> {
            if (f.isSuccess()) {
                from.read();
            } else {
                f.channel().close();
            }
        });
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) {
        if (primary != null) {
            counters.active.decrementAndGet();
            closeOnFlush(primary);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        closeOnFlush(ctx.channel());
    }

    static void closeOnFlush(Channel ch) {
        if (ch.isActive()) {
            ch.writeAndFlush(Unpooled.EMPTY_BUFFER).addListener(ChannelFutureListener.CLOSE);
        }
    }

    /** The primary's side: what its proxy answers goes to the client. */
    private static final class ToClient extends ChannelInboundHandlerAdapter {

        private final Channel client;
        private final RelayCounters counters;

        ToClient(Channel client, RelayCounters counters) {
            this.client = client;
            this.counters = counters;
        }

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            pass((ByteBuf) msg, ctx.channel(), client, counters.bytesToClients);
        }

        @Override
        public void channelInactive(ChannelHandlerContext ctx) {
            closeOnFlush(client);
        }

        @Override
        public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
            closeOnFlush(ctx.channel());
        }
    }
}
