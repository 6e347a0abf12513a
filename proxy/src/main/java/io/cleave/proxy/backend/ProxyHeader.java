package io.cleave.proxy.backend;

import java.nio.charset.StandardCharsets;

/**
 * The PROXY protocol's version 1 header (HAProxy's text form), which a server that lists the
 * proxy's address in {@code proxy_protocol_networks} reads before anything else on a connection
 * and then takes the connection as the client's: account host patterns match the client's address.
 */
final class ProxyHeader {

    private ProxyHeader() {
    }

    static byte[] v1(String clientIp, ShardEndpoint shard) {
        if (clientIp == null) {
            throw new IllegalStateException("a login by the client's address needs that address");
        }
        boolean v6 = clientIp.indexOf(':') >= 0;
        String destination = v6 ? "::1" : shard.tcp() != null && shard.tcp().getAddress() != null
                ? shard.tcp().getAddress().getHostAddress() : "127.0.0.1";
        if (v6 != (destination.indexOf(':') >= 0)) {
            destination = v6 ? "::1" : "127.0.0.1";
        }
        int port = shard.tcp() == null ? 0 : shard.tcp().getPort();
        return ("PROXY " + (v6 ? "TCP6 " : "TCP4 ") + clientIp + " " + destination + " 0 " + port + "\r\n")
                .getBytes(StandardCharsets.US_ASCII);
    }
}
