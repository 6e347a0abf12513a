package io.cleave.proxy.proxyprotocol;

import io.netty.channel.Channel;
import io.netty.util.AttributeKey;

import java.net.SocketAddress;

/**
 * Where a client connected from: the address a trusted PROXY protocol header named, else the connection's own
 * peer. Account host matching, PROCESSLIST and the logs all read it here.
 */
public final class ClientEndpoint {

    static final AttributeKey<SocketAddress> PROXIED = AttributeKey.valueOf("cleave.proxied-client");

    private ClientEndpoint() {
    }

    public static SocketAddress of(Channel channel) {
        SocketAddress proxied = channel.attr(PROXIED).get();
        return proxied != null ? proxied : channel.remoteAddress();
    }

    /** Whether the address came from a PROXY protocol header. */
    public static boolean proxied(Channel channel) {
        return channel.attr(PROXIED).get() != null;
    }
}
