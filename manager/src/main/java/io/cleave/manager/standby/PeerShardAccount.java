package io.cleave.manager.standby;

import io.cleave.manager.config.ListenAddresses;
import io.cleave.manager.instance.ShardAccount;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Optional;

/**
 * The account the pair's other home's proxy logs in to this home's shards with once it forwards its clients here
 * (after a switchover): the shard account's name, bound to the other home's advertised shard address, with the
 * pair's replication secret as password (both homes know it; each home's own shard secret stays its own). It does
 * the proxy's control work there as the shard account does on the proxy's own shards (its tables, XA recovery of
 * its branches, decisions), so it has the same privileges. Made by the take-over on each shard outside the binlog:
 * each home makes the one its peer needs (on a switch back the roles swap and the other home makes its own), and
 * replicating it would make it on the other home for its own address, where nothing uses it.
 *
 * <p>A peer on loopback (both homes on one host) needs none: its proxy reaches the shards through their Unix
 * sockets with this home's shard account.
 */
public record PeerShardAccount(String host, String password) {

    public PeerShardAccount {
        if (!password.matches("[0-9A-Za-z]+")) {
            throw new IllegalArgumentException("the pair's secret must be alphanumeric");
        }
        if (!host.matches("[0-9A-Fa-f.:]+")) {
            // Shards run with skip_name_resolve: an account bound to a host name never matches a login.
            throw new IllegalArgumentException("the other home's shard address '" + host + "' is no IP address:"
                    + " set its server.advertise_host (or bind_address) to the address its proxy connects from");
        }
    }

    /** The account {@code peerHost} needs, or empty when it is on loopback (or an old primary that did not say). */
    public static Optional<PeerShardAccount> forPeer(String peerHost, String password) {
        if (peerHost == null || peerHost.isBlank() || ListenAddresses.isLoopback(peerHost)) {
            return Optional.empty();
        }
        return Optional.of(new PeerShardAccount(peerHost, password));
    }

    public String user() {
        return ShardAccount.USER;
    }

    /** {@code 'cleave'@'host'}, as in SQL. */
    public String name() {
        return "'" + user() + "'@'" + host + "'";
    }

    /** The statements that make the account right whatever state it is in (run outside the binlog). */
    public java.util.List<String> statements() {
        return java.util.List.of(
                "CREATE USER IF NOT EXISTS " + name() + " IDENTIFIED BY '" + password + "'",
                "ALTER USER " + name() + " IDENTIFIED BY '" + password + "'",
                "GRANT ALL PRIVILEGES ON *.* TO " + name() + " WITH GRANT OPTION");
    }

    /** Makes the account right on one shard, outside the binlog. */
    void ensure(Connection shard) throws SQLException {
        try (Statement s = shard.createStatement()) {
            s.execute("SET SESSION sql_log_bin = 0");
            try {
                for (String sql : statements()) {
                    s.execute(sql);
                }
            } finally {
                s.execute("SET SESSION sql_log_bin = 1");
            }
        }
    }
}
