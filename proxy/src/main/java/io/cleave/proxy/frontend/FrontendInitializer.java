package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.PacketFrameDecoder;
import io.cleave.proxy.proxyprotocol.ProxyProtocolGate;
import io.cleave.proxy.server.ProxyRuntime;
import io.netty.channel.Channel;
import io.netty.channel.ChannelInitializer;

/**
 * The pipeline of a client connection: a PROXY protocol header (from a trusted relay), TLS sniffing (when TLS is
 * offered), framing, the session.
 */
public final class FrontendInitializer extends ChannelInitializer<Channel> {

    private final ProxyRuntime runtime;

    public FrontendInitializer(ProxyRuntime runtime) {
        this.runtime = runtime;
    }

    @Override
    protected void initChannel(Channel ch) {
        // Always there: a header from a peer that is not trusted gets a clear refusal, not a framing error.
        ch.pipeline().addLast("proxy-protocol", new ProxyProtocolGate(runtime.clientProxyProtocol()));
        if (runtime.sslContext() != null) {
            ch.pipeline().addLast("sniffer", new SslRequestSniffer(runtime.sslContext()));
        }
        PacketFrameDecoder frames = new PacketFrameDecoder();
        // A handshake response is small: nothing larger is buffered before login.
        frames.maxPayload(runtime.config().login().maxPacket());
        ch.pipeline().addLast("frames", frames);
        ch.pipeline().addLast("session", new FrontendHandler(runtime));
    }
}
