package io.cleave.bench.compare;

import java.util.List;

/**
 * The account a configuration's clients log in to the proxy with, when not root: made through the
 * proxy (as root) after the dataset is loaded, with the privileges an application has on its own
 * database and nothing else.
 *
 * @param host the account's host pattern: {@code %} (the proxy reaches the shards over their Unix
 *             socket for it), or a loopback one such as {@code 127.0.0.0/255.0.0.0}, for which it
 *             goes over TCP with a PROXY header as it does for the bootstrap root
 */
public record ClientAccount(String user, String password, String host) {

    /** An application's account, named {@code user}, of {@code host}. */
    public static ClientAccount application(String user, String host) {
        return new ClientAccount(user, user + "_pw", host);
    }

    /** What makes it, granted SELECT, INSERT, UPDATE and DELETE on {@code database}. */
    public List<String> statements(String database) {
        String account = "'" + user + "'@'" + host + "'";
        return List.of("CREATE USER IF NOT EXISTS " + account + " IDENTIFIED BY '" + password + "'",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON `" + database + "`.* TO " + account);
    }
}
