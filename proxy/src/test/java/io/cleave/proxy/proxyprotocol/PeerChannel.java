package io.cleave.proxy.proxyprotocol;

import io.netty.channel.ChannelHandler;
import io.netty.channel.embedded.EmbeddedChannel;

import java.net.InetSocketAddress;
import java.net.SocketAddress;

/** An {@link EmbeddedChannel} whose peer is a TCP client at a given address (Netty's own has no IP address). */
public final class PeerChannel {

    private PeerChannel() {
    }

    public static EmbeddedChannel from(String ip, int port, ChannelHandler... handlers) {
        SocketAddress peer = new InetSocketAddress(ip, port);
        return new EmbeddedChannel(handlers) {
            @Override
            protected SocketAddress remoteAddress0() {
                return peer;
            }
        };
    }
}
