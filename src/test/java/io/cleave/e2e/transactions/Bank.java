package io.cleave.e2e.transactions;

import io.cleave.e2e.support.Leftovers;
import io.cleave.e2e.support.QueryRows;
import io.cleave.e2e.support.RunningDaemon;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The accounts the transaction tests move money between: {@code bank.accounts(id, owner, balance)}
 * sharded by id in ranges of 100 (ids 1-99 on shard 0, 100-199 on shard 1, 200- on shard 2), so a
 * test knows where each account lives, and reads them on the shards themselves.
 */
final class Bank {

    static final String TABLE = "bank.accounts";

    private Bank() {
    }

    /** The sharding section for {@code shards} shards (2 or 3). */
    static String sharding(int shards) {
        String ranges = shards == 2
                ? """
                        - { from: 1, to: 99, shard: 0 }
                        - { from: 100, shard: 1 }
                """
                : """
                        - { from: 1, to: 99, shard: 0 }
                        - { from: 100, to: 199, shard: 1 }
                        - { from: 200, shard: 2 }
                """;
        return """
                sharding:
                  keyspaces:
                    - name: account
                      function: range
                      ranges:
                """ + ranges + """
                  tables:
                    - { name: accounts, keyspace: account, column: id }
                """;
    }

    static int shardOf(int id) {
        return id / 100;
    }

    /** Creates the schema and table through the proxy (on every shard); balances never go negative. */
    static void create(Connection proxy) throws SQLException {
        execute(proxy, "CREATE DATABASE IF NOT EXISTS bank");
        execute(proxy, "CREATE TABLE IF NOT EXISTS " + TABLE + " (id INT NOT NULL PRIMARY KEY, owner VARCHAR(20) NOT NULL,"
                + " balance BIGINT NOT NULL, CHECK (balance >= 0)) ENGINE=InnoDB");
    }

    /** Opens accounts through the proxy, each with {@code balance}, in one statement per account. */
    static void open(Connection proxy, String owner, long balance, int... ids) throws SQLException {
        for (int id : ids) {
            execute(proxy, "INSERT INTO " + TABLE + " (id, owner, balance) VALUES (" + id + ", '" + owner + "', "
                    + balance + ")");
        }
    }

    /** An account's balance read on its own shard, or null when the shard has no such row. */
    static Long balanceOnShard(RunningDaemon daemon, int id) throws SQLException {
        try (Connection s = daemon.connect(shardOf(id))) {
            List<String> rows = rows(s, "SELECT balance FROM " + TABLE + " WHERE id = " + id);
            return rows.isEmpty() ? null : Long.parseLong(rows.get(0));
        }
    }

    /**
     * The balances of {@code ids}, each read on its shard (null for a missing account), once what
     * the proxy acknowledged is there: a commit across shards is answered at its decision and its
     * branches commit right after; a statement through the proxy reaching a shard waits for them
     * (the commit fence), a direct read does not. So each account is read through the proxy first.
     */
    static Map<Integer, Long> balancesOnShards(RunningDaemon daemon, int... ids) throws SQLException {
        try (Connection proxy = daemon.connectProxy("bank", "")) {
            for (int id : ids) {
                rows(proxy, "SELECT balance FROM " + TABLE + " WHERE id = " + id);
            }
        }
        Map<Integer, Long> out = new LinkedHashMap<>();
        for (int id : ids) {
            out.put(id, balanceOnShard(daemon, id));
        }
        return out;
    }

    /** The sum of every balance on every shard. */
    static long totalOnShards(RunningDaemon daemon, int shards) throws SQLException {
        long total = 0;
        for (int shard = 0; shard < shards; shard++) {
            try (Connection s = daemon.connect(shard)) {
                total += Long.parseLong(rows(s, "SELECT COALESCE(SUM(balance), 0) FROM " + TABLE).get(0));
            }
        }
        return total;
    }

    /** The XA ids prepared on a shard (XA RECOVER). */
    static List<String> preparedBranches(RunningDaemon daemon, int shard) throws SQLException {
        try (Connection s = daemon.connect(shard)) {
            return rows(s, "XA RECOVER");
        }
    }

    /** Waits until no shard has an open InnoDB transaction or a prepared branch; fails naming what is left. */
    static void awaitNothingOpen(RunningDaemon daemon, int shards, Duration timeout) throws Exception {
        assertThat(daemon.shards()).hasSize(shards);
        Leftovers.awaitNothingOpen(daemon, timeout);
    }

    /** Runs {@code sql}; returns its error, or null when it succeeded. */
    static SQLException attempt(Connection c, String sql) {
        try {
            execute(c, sql);
            return null;
        } catch (SQLException e) {
            return e;
        }
    }

    /** Expected balances: id, balance (null: no such account), id, balance, ... in order. */
    static Map<Integer, Long> balances(Object... idThenBalance) {
        Map<Integer, Long> out = new LinkedHashMap<>();
        for (int i = 0; i < idThenBalance.length; i += 2) {
            out.put((Integer) idThenBalance[i], (Long) idThenBalance[i + 1]);
        }
        return out;
    }

    static void execute(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement()) {
            st.execute(sql);
        }
    }

    /** Each row's columns joined by a space. */
    static List<String> rows(Connection c, String sql) throws SQLException {
        return QueryRows.of(c, sql);
    }
}
