package io.cleave.proxy.session;

import io.cleave.router.sql.lex.VersionComments;

/**
 * The names a server gives a session's transaction characteristics. MariaDB before 11.1 knows
 * them only as {@code tx_isolation} and {@code tx_read_only}, MySQL 8 only as
 * {@code transaction_isolation} and {@code transaction_read_only}; MariaDB 11.1+ takes both. The
 * proxy reads them back and replays them on other connections by the name the shards' server
 * takes, and files a client's SET of either name under that one, so a session never carries one
 * setting under two names (which would be replayed in either order).
 */
public record TransactionVariables(String isolation, String readOnly) {

    public static final TransactionVariables CURRENT = new TransactionVariables("transaction_isolation", "transaction_read_only");
    public static final TransactionVariables LEGACY = new TransactionVariables("tx_isolation", "tx_read_only");

    /** By a shard's handshake version string, e.g. {@code 5.5.5-10.11.19-MariaDB-0+deb12u1} or {@code 11.4.5-MariaDB}. */
    public static TransactionVariables of(String serverVersion) {
        VersionComments server = VersionComments.of(serverVersion);
        return server.mariaDb() && server.version() < 110100 ? LEGACY : CURRENT;
    }

    /** The name this server files a system variable under: either spelling of the two becomes this server's. */
    public String canonical(String name) {
        if (name.equalsIgnoreCase(CURRENT.isolation) || name.equalsIgnoreCase(LEGACY.isolation)) {
            return isolation;
        }
        if (name.equalsIgnoreCase(CURRENT.readOnly) || name.equalsIgnoreCase(LEGACY.readOnly)) {
            return readOnly;
        }
        return name;
    }
}
