package io.cleave.proxy.proxyprotocol;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;
import io.netty.handler.codec.haproxy.HAProxyMessageDecoder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;

/**
 * The first handler of a client connection: looks at its first bytes for a PROXY protocol header (version 1 or 2).
 * A header from a trusted peer is decoded by Netty's {@link HAProxyMessageDecoder} and its source becomes the
 * client's address ({@link ClientEndpoint}); a header from any other peer, or none from a trusted peer when one is
 * required, refuses the connection ({@link ProxyHeaderRefused}: the session answers with an error and closes).
 * Either way the gate leaves the pipeline once it has decided, so the connection's later bytes pass it by.
 */
public final class ProxyProtocolGate extends ByteToMessageDecoder {

    private static final Logger log = LoggerFactory.getLogger(ProxyProtocolGate.class);

    private final ProxyProtocolPolicy policy;
    private boolean refused;

    public ProxyProtocolGate(ProxyProtocolPolicy policy) {
        this.policy = policy;
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (refused) {
            in.skipBytes(in.readableBytes());
            return;
        }
        ProxyHeaderStart start = ProxyHeaderStart.of(in);
        if (start == ProxyHeaderStart.UNDECIDED) {
            return;
        }
        SocketAddress peer = ctx.channel().remoteAddress();
        boolean trusted = policy.trusted().trusts(peer);
        if (start != ProxyHeaderStart.NONE) {
            if (!trusted) {
                refuse(ctx, in, "Host '" + display(peer) + "' sent a PROXY protocol header, which is taken only from"
                        + " the networks proxy.proxy_protocol_networks lists");
                return;
            }
            ctx.pipeline().addAfter(ctx.name(), "proxy-header", new HAProxyMessageDecoder());
            ctx.pipeline().addAfter("proxy-header", "proxy-header-source", new ProxiedSource());
        } else if (trusted && policy.required()) {
            refuse(ctx, in, "Host '" + display(peer) + "' is in proxy.proxy_protocol_networks and"
                    + " proxy.proxy_protocol_required is on, but sent no PROXY protocol header");
            return;
        }
        // The bytes read so far go on to the next handler as the gate leaves.
        ctx.pipeline().remove(this);
    }

    private void refuse(ChannelHandlerContext ctx, ByteBuf in, String reason) {
        refused = true;
        in.skipBytes(in.readableBytes());
        log.warn("refused a client connection: {}", reason);
        ctx.fireUserEventTriggered(new ProxyHeaderRefused(reason));
    }

    static String display(SocketAddress peer) {
        if (peer instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return "localhost";
    }
}
