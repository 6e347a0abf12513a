package io.cleave.manager.standby;

import io.cleave.manager.config.ListenAddresses;
import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.move.ShardLinks;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import io.cleave.manager.instance.ShardAccount;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.List;
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
 * <p>Its proxy logs its clients in to this home's shards with their own accounts, with a PROXY header naming the
 * client where the account depends on the client's address: so the shards also take that header from the peer's
 * address ({@code proxy_protocol_networks}, set at once and kept in the shards' my.cnf while the address is
 * remembered in {@code state/peer-shard-host}). Once this home becomes a standby again (a switchover back, a
 * rejoin), the other home's proxy serves its own shards: the account is dropped and the address taken out.
 *
 * <p>A peer on loopback (both homes on one host) needs none: its proxy reaches the shards through their Unix
 * sockets with this home's shard account, and loopback is trusted already.
 */
public record PeerShardAccount(String host, String password) {

    private static final Logger log = LoggerFactory.getLogger(PeerShardAccount.class);
    private static final String FILE = "peer-shard-host";

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

    /** Makes the account right on one shard, outside the binlog, and lets the shard take the peer's PROXY headers. */
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
            trust(s, host, true);
        }
    }

    /** Adds {@code peer} to the shard's proxy_protocol_networks, or takes it out, leaving the rest as it is. */
    private static void trust(Statement s, String peer, boolean trusted) throws SQLException {
        String now;
        try (java.sql.ResultSet rs = s.executeQuery("SELECT @@GLOBAL.proxy_protocol_networks")) {
            rs.next();
            now = rs.getString(1) == null ? "" : rs.getString(1);
        }
        String next = networks(now, peer, trusted);
        if (!next.equals(now) && next.matches("[0-9A-Za-z.:/,_-]*")) {
            s.execute("SET GLOBAL proxy_protocol_networks = '" + next + "'");
        }
    }

    /** The list {@code now} (comma-separated) with {@code peer} in it once, or out of it, the rest as it was. */
    static String networks(String now, String peer, boolean trusted) {
        java.util.List<String> entries = new java.util.ArrayList<>();
        for (String e : now.split(",")) {
            if (!e.isBlank() && !e.trim().equals(peer)) {
                entries.add(e.trim());
            }
        }
        if (trusted) {
            entries.add(peer);
        }
        return String.join(",", entries);
    }

    /** Remembers the peer's address, for the shards' my.cnf ({@link #networks}) and for {@link #forget}. */
    void remember(CleaveHome home) throws java.io.IOException {
        java.nio.file.Files.writeString(home.state().resolve(FILE), host + "\n");
    }

    /** The peer's address this home made an account for, while its proxy may forward here. */
    public static java.util.Optional<String> remembered(CleaveHome home) {
        java.nio.file.Path file = home.state().resolve(FILE);
        try {
            return java.nio.file.Files.exists(file) ? java.util.Optional.of(java.nio.file.Files.readString(file).trim())
                    .filter(h -> !h.isEmpty()) : java.util.Optional.empty();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("cannot read " + file, e);
        }
    }

    /** The shards' proxy_protocol_networks: {@code base} and the peer's address, when there is one. */
    public static String networks(String base, Optional<String> peer) {
        return peer.map(h -> networks(base, h, true)).orElse(base);
    }

    /**
     * This home is a standby again: the other home's proxy serves its own shards, so the account made for it is
     * dropped (outside the binlog, as it was made) and its address no longer trusted for PROXY headers, on each of
     * {@code shards}; then the address is forgotten. Nothing to do when none is remembered; a failure is logged (the
     * account is harmless to the pair's safety, and the next take-over here makes it right again).
     */
    public static void forget(CleaveHome home, ShardLinks links, List<Integer> shards) {
        Optional<String> peer = remembered(home);
        if (peer.isEmpty()) {
            return;
        }
        String name = "'" + ShardAccount.USER + "'@'" + peer.get() + "'";
        try {
            for (int shard : shards) {
                try (Connection c = links.open(shard); Statement s = c.createStatement()) {
                    s.execute("SET SESSION sql_log_bin = 0");
                    try {
                        s.execute("DROP USER IF EXISTS " + name);
                    } finally {
                        s.execute("SET SESSION sql_log_bin = 1");
                    }
                    trust(s, peer.get(), false);
                }
            }
            java.nio.file.Files.deleteIfExists(home.state().resolve(FILE));
            log.info("dropped {} on shards {} and stopped taking PROXY headers from {}: the other home serves its own"
                    + " shards", name, shards, peer.get());
        } catch (SQLException | java.io.IOException e) {
            log.warn("could not drop {}, made for the other home's forwarding proxy: {}", name, e.getMessage());
        }
    }
}
