package io.cleave.manager.config;

import java.net.InetAddress;
import java.net.UnknownHostException;

/** A listen address such as {@code 127.0.0.1:6033}. */
public record HostPort(String host, int port) {

    /** @throws IllegalArgumentException with a message saying what would be valid */
    public static HostPort parse(String text) {
        int colon = text.lastIndexOf(':');
        if (colon <= 0 || colon == text.length() - 1) {
            throw new IllegalArgumentException("'" + text + "' is not an address: expected host:port, e.g. 127.0.0.1:6033");
        }
        String host = text.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(text.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + text + "' has no numeric port: expected host:port, e.g. 127.0.0.1:6033");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " is not between 1 and 65535");
        }
        return new HostPort(host, port);
    }

    /** True when only this host can reach the address. */
    public boolean isLoopback() {
        if (host.equalsIgnoreCase("localhost")) {
            return true;
        }
        try {
            return InetAddress.getByName(host).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    @Override
    public String toString() {
        return host.contains(":") ? "[" + host + "]:" + port : host + ":" + port;
    }
}
