package io.cleave.proxy.accounts;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Where a client connected from, as a server with {@code skip_name_resolve} sees it (the shards run
 * so): a TCP client by its IP address only, never a name; a client of the proxy's Unix socket as
 * {@code localhost}, with no address. Host patterns of accounts are matched against exactly this.
 *
 * @param hostname {@code localhost} for a Unix socket client, else null
 * @param ip       the client's IP address in the form the server prints it, or null
 */
public record ClientAddress(String hostname, String ip) {

    public static final ClientAddress LOCAL_SOCKET = new ClientAddress("localhost", null);

    public static ClientAddress of(SocketAddress remote) {
        if (remote instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return ofIp(inet.getAddress());
        }
        return LOCAL_SOCKET;
    }

    public static ClientAddress ofIp(InetAddress address) {
        String ip = address.getHostAddress();
        if (address instanceof Inet6Address) {
            int zone = ip.indexOf('%');
            ip = zone < 0 ? ip : ip.substring(0, zone);
        }
        return new ClientAddress(null, ip);
    }

    /** The host part of {@code 'user'@'host'} in messages: the address, or localhost. */
    public String display() {
        return ip != null ? ip : hostname;
    }

    public boolean isLocalSocket() {
        return ip == null;
    }
}
