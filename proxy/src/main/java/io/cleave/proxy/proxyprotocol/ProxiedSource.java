package io.cleave.proxy.proxyprotocol;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.codec.DecoderException;
import io.netty.handler.codec.haproxy.HAProxyCommand;
import io.netty.handler.codec.haproxy.HAProxyMessage;
import io.netty.handler.codec.haproxy.HAProxyProtocolException;
import io.netty.handler.codec.haproxy.HAProxyProxiedProtocol;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.UnknownHostException;

/**
 * Takes the decoded header's source as the client's address, then leaves the pipeline. A LOCAL header (a health
 * check of the balancer itself) or one of an unknown or non-IP protocol leaves the connection's own peer, as the
 * protocol says. A malformed header has closed the connection already (the decoder drops it, as the protocol asks).
 */
final class ProxiedSource extends ChannelInboundHandlerAdapter {

    private static final Logger log = LoggerFactory.getLogger(ProxiedSource.class);

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws UnknownHostException {
        if (!(msg instanceof HAProxyMessage header)) {
            ctx.fireChannelRead(msg);
            return;
        }
        try {
            HAProxyProxiedProtocol.AddressFamily family = header.proxiedProtocol().addressFamily();
            if (header.command() == HAProxyCommand.PROXY && header.sourceAddress() != null
                    && (family == HAProxyProxiedProtocol.AddressFamily.AF_IPv4
                    || family == HAProxyProxiedProtocol.AddressFamily.AF_IPv6)) {
                // An IP literal (the decoder checked it): no name is looked up.
                InetAddress source = InetAddress.getByName(header.sourceAddress());
                ctx.channel().attr(ClientEndpoint.PROXIED).set(new InetSocketAddress(source, header.sourcePort()));
            }
        } finally {
            header.release();
            ctx.pipeline().remove(this);
        }
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        Throwable c = cause instanceof DecoderException && cause.getCause() != null ? cause.getCause() : cause;
        if (c instanceof HAProxyProtocolException) {
            log.info("closed client {}: malformed PROXY protocol header: {}", ctx.channel().remoteAddress(), c.getMessage());
            ctx.close();
            return;
        }
        ctx.fireExceptionCaught(cause);
    }
}
