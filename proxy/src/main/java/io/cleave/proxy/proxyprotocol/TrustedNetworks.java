package io.cleave.proxy.proxyprotocol;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.net.UnknownHostException;
import java.util.ArrayList;
import java.util.List;

/**
 * The peers a PROXY protocol header is taken from, as MariaDB's {@code proxy_protocol_networks} lists them: IP
 * addresses and networks ({@code 10.0.0.0/8}, {@code 192.168.1.7}, {@code ::1}, {@code fd00::/8}), {@code localhost}
 * for clients of the Unix socket, or {@code *} for every peer. Empty: none.
 */
public record TrustedNetworks(List<Network> networks, boolean localSocket) {

    public static final TrustedNetworks NONE = new TrustedNetworks(List.of(), false);

    /** One network: an address and how many of its leading bits a peer must share with it. */
    public record Network(byte[] address, int prefix) {

        boolean contains(InetAddress peer) {
            byte[] a = peer.getAddress();
            if (a.length != address.length) {
                return false;
            }
            int bits = prefix;
            for (int i = 0; i < a.length && bits > 0; i++, bits -= 8) {
                int mask = bits >= 8 ? 0xff : (0xff << (8 - bits)) & 0xff;
                if ((a[i] & mask) != (address[i] & mask)) {
                    return false;
                }
            }
            return true;
        }

        @Override
        public String toString() {
            try {
                return InetAddress.getByAddress(address).getHostAddress() + "/" + prefix;
            } catch (UnknownHostException e) {
                throw new IllegalStateException(e);
            }
        }
    }

    public TrustedNetworks {
        networks = List.copyOf(networks);
    }

    /**
     * Parses a comma-separated list as MariaDB takes it.
     *
     * @throws IllegalArgumentException naming the entry that is neither an address, a network, localhost nor *
     */
    public static TrustedNetworks parse(String text) {
        List<Network> out = new ArrayList<>();
        boolean local = false;
        for (String raw : text.split(",")) {
            String entry = raw.trim();
            if (entry.isEmpty()) {
                continue;
            }
            if (entry.equals("*")) {
                out.add(new Network(new byte[4], 0));
                out.add(new Network(new byte[16], 0));
                local = true;
            } else if (entry.equalsIgnoreCase("localhost")) {
                local = true;
            } else {
                out.add(network(entry));
            }
        }
        return new TrustedNetworks(out, local);
    }

    private static Network network(String entry) {
        int slash = entry.indexOf('/');
        String host = slash < 0 ? entry : entry.substring(0, slash);
        if (!host.matches("[0-9a-fA-F:.]+") || (host.indexOf(':') < 0 && !host.matches("[0-9.]+"))) {
            throw new IllegalArgumentException("'" + entry + "' is not an IP address or network: expected e.g."
                    + " 10.0.0.0/8, 192.168.1.7, ::1, localhost or *");
        }
        byte[] address;
        try {
            address = InetAddress.getByName(host).getAddress();
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("'" + entry + "' is not an IP address: " + e.getMessage(), e);
        }
        int max = address.length * 8;
        int prefix = max;
        if (slash >= 0) {
            try {
                prefix = Integer.parseInt(entry.substring(slash + 1));
            } catch (NumberFormatException e) {
                prefix = -1;
            }
            if (prefix < 0 || prefix > max) {
                throw new IllegalArgumentException("'" + entry + "': the prefix length must be 0.." + max);
            }
        }
        return new Network(address, prefix);
    }

    /** These networks and {@code address} too (a single address); unchanged when it is null. */
    public TrustedNetworks with(InetAddress address) {
        if (address == null || trusts(new InetSocketAddress(address, 0))) {
            return this;
        }
        List<Network> out = new ArrayList<>(networks);
        out.add(new Network(address.getAddress(), address.getAddress().length * 8));
        return new TrustedNetworks(out, localSocket);
    }

    /** Whether a header from {@code peer} (a TCP address, else a Unix socket client) is taken. */
    public boolean trusts(SocketAddress peer) {
        if (!(peer instanceof InetSocketAddress inet) || inet.getAddress() == null) {
            return localSocket;
        }
        for (Network n : networks) {
            if (n.contains(inet.getAddress())) {
                return true;
            }
        }
        return false;
    }

    public boolean isEmpty() {
        return networks.isEmpty() && !localSocket;
    }

    @Override
    public String toString() {
        List<String> parts = new ArrayList<>();
        networks.forEach(n -> parts.add(n.toString()));
        if (localSocket) {
            parts.add("localhost");
        }
        return String.join(",", parts);
    }
}
