package io.cleave.e2e.backup;

import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.check.ConsistencyCheck;
import io.cleave.e2e.moves.BankTransfers;
import io.cleave.manager.daemon.CleaveProxyService;
import io.cleave.manager.daemon.Daemon;
import io.cleave.manager.daemon.DaemonOptions;
import io.cleave.manager.daemon.ShardEndpoint;
import io.cleave.manager.home.CleaveHome;
import io.cleave.router.keyspace.ShardFunction;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.shardmap.ShardMap;
import org.yaml.snakeyaml.Yaml;

import javax.sql.DataSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A home a restore built, started with its proxy on ports of its own (the home it came from still
 * runs on the ones its config names), and the checks every restored home must pass: the bank's
 * total, every row on the shard the restored map names (reached through the restored proxy too),
 * no XA branch left prepared.
 */
final class RestoredHome implements AutoCloseable {

    private final Daemon daemon;
    private final int proxyPort;

    private RestoredHome(Daemon daemon, int proxyPort) {
        this.daemon = daemon;
        this.proxyPort = proxyPort;
    }

    static RestoredHome start(Path home, Path config, int basePort, int proxyPort) throws Exception {
        Map<String, Object> root = new Yaml().load(Files.readString(config));
        section(root, "server").put("base_port", basePort);
        section(root, "proxy").put("listen", "127.0.0.1:" + proxyPort);
        section(root, "admin").put("port", 0);
        Path test = home.resolve("test-ports.yaml");
        Files.writeString(test, new Yaml().dump(root));
        Daemon d = new Daemon(DaemonOptions.standard(new CleaveHome(home), test, System.getenv())
                .withProxy(CleaveProxyService.FACTORY));
        d.start();
        return new RestoredHome(d, proxyPort);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> section(Map<String, Object> root, String key) {
        return (Map<String, Object>) root.computeIfAbsent(key, k -> new java.util.LinkedHashMap<>());
    }

    Connection proxy(String db) throws SQLException {
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + proxyPort + "/" + db
                + "?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", "");
    }

    Connection shard(int shard) throws SQLException {
        ShardEndpoint e = daemon.shardEndpoints().get(shard);
        return DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + e.port() + "/?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true", e.user(), e.secret());
    }

    int shards() {
        return daemon.shardEndpoints().size();
    }

    /** Every invariant of a restored bank: total, count, placement, nothing prepared. */
    void assertBankHolds(long accounts, String what) throws Exception {
        try (Connection c = proxy("bank")) {
            assertThat(single(c, "SELECT COUNT(*) FROM accounts")).as("%s: accounts through the proxy", what).isEqualTo(accounts);
            assertThat(single(c, "SELECT SUM(balance) FROM accounts")).as("%s: the bank's total", what)
                    .isEqualTo(accounts * BankTransfers.INITIAL);
        }
        assertThat(assertRowsWhereRouted("bank.accounts", "branch", "branch", what)).as("%s: accounts on the shards", what)
                .isEqualTo(accounts);
        for (int s = 0; s < shards(); s++) {
            try (Connection c = shard(s); Statement st = c.createStatement()) {
                try (ResultSet rs = st.executeQuery("XA RECOVER")) {
                    List<String> prepared = new ArrayList<>();
                    while (rs.next()) {
                        prepared.add(rs.getString(4));
                    }
                    assertThat(prepared).as("%s: XA branches prepared on shard %d", what, s).isEmpty();
                }
            }
        }
    }

    /**
     * Every row of {@code table} (sharded by {@code column} in {@code keyspace}) is on the shard the
     * restored map routes its key to; returns how many rows the shards hold in all.
     */
    long assertRowsWhereRouted(String table, String keyspace, String column, String what) throws SQLException {
        ShardMap map = daemon.shardMaps().current();
        ShardFunction function = daemon.config().sharding().topology().keyspace(keyspace).function();
        long seen = 0;
        for (int s = 0; s < shards(); s++) {
            try (Connection c = shard(s); Statement st = c.createStatement();
                 ResultSet rs = st.executeQuery("SELECT " + column + " FROM " + table)) {
                while (rs.next()) {
                    long key = rs.getLong(1);
                    assertThat(map.shardOf(keyspace, ShardKey.of(key), function))
                            .as("%s: shard of %s %d, found on shard %d", what, column, key, s).isEqualTo(s);
                    seen++;
                }
            }
        }
        return seen;
    }

    /**
     * TPC-C's consistency conditions 1-4 for warehouses 1..{@code warehouses}, read through the restored
     * proxy (each query names one warehouse), and every order where the restored map routes it.
     */
    void assertTpccHolds(int warehouses, String what) throws Exception {
        DataSource proxy = new JdbcTarget("jdbc:mysql://127.0.0.1:" + proxyPort + "/tpcc?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true", "root", "");
        assertThat(ConsistencyCheck.check(List.of(proxy), warehouses)).as("%s: TPC-C conditions 1-4", what).isEmpty();
        assertThat(assertRowsWhereRouted("tpcc.orders", "warehouse", "o_w_id", what)).as("%s: orders", what).isPositive();
    }

    static long single(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        }
    }

    @Override
    public void close() {
        daemon.close();
    }
}
