package io.cleave.manager.imports;

import io.cleave.manager.daemon.ShardEndpoint;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;

/**
 * Where an import reads from: {@code mysql://USER:PASSWORD@HOST:PORT/DATABASE} (user and password
 * percent-encoded where they hold {@code @ : /}). {@link #toString()} and {@link #label()} leave
 * the password out: they are what logs, status and the shard map show.
 */
public record SourceUrl(String user, String password, String host, int port, String database) {

    public static final int DEFAULT_PORT = 3306;

    /** @throws IllegalArgumentException saying what a valid URL looks like */
    public static SourceUrl parse(String url) {
        String shape = "give the source as mysql://USER:PASSWORD@HOST:PORT/DATABASE";
        if (url == null || !url.startsWith("mysql://")) {
            throw new IllegalArgumentException(shape + " (it must start with mysql://)");
        }
        String rest = url.substring("mysql://".length());
        int at = rest.lastIndexOf('@');
        if (at <= 0) {
            throw new IllegalArgumentException(shape + ": the account (USER:PASSWORD@) is missing");
        }
        String userInfo = rest.substring(0, at);
        String place = rest.substring(at + 1);
        int colon = userInfo.indexOf(':');
        String user = decode(colon < 0 ? userInfo : userInfo.substring(0, colon));
        String password = colon < 0 ? "" : decode(userInfo.substring(colon + 1));
        int slash = place.indexOf('/');
        if (slash < 0 || slash == place.length() - 1) {
            throw new IllegalArgumentException(shape + ": the database (/DATABASE) is missing");
        }
        String database = decode(place.substring(slash + 1));
        if (database.contains("/") || database.contains("?")) {
            throw new IllegalArgumentException(shape + ": '" + database + "' is not one database name");
        }
        String hostPort = place.substring(0, slash);
        String host = hostPort;
        int port = DEFAULT_PORT;
        int portColon = hostPort.lastIndexOf(':');
        if (portColon >= 0 && !hostPort.endsWith("]")) {
            host = hostPort.substring(0, portColon);
            try {
                port = Integer.parseInt(hostPort.substring(portColon + 1));
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(shape + ": '" + hostPort.substring(portColon + 1) + "' is not a port");
            }
        }
        if (host.isEmpty() || user.isEmpty()) {
            throw new IllegalArgumentException(shape + ": the " + (host.isEmpty() ? "host" : "user") + " is missing");
        }
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException(shape + ": port " + port + " is out of range");
        }
        return new SourceUrl(user, password, host, port, database);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s.replace("+", "%2B"), StandardCharsets.UTF_8);
    }

    /** The source without its password. */
    public String label() {
        return "mysql://" + user + "@" + host + ":" + port + "/" + database;
    }

    /** The URL with its password, for the state file only. */
    String secretForm() {
        return "mysql://" + encode(user) + ":" + encode(password) + "@" + host + ":" + port + "/" + encode(database);
    }

    private static String encode(String s) {
        return java.net.URLEncoder.encode(s, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** How the proxy and the mover reach the source once it is attached as shard {@code index}. */
    ShardEndpoint endpoint(int index) {
        return new ShardEndpoint(index, "source " + label(), null, host, port, user, password, true);
    }

    @Override
    public String toString() {
        return label();
    }
}
