package io.cleave.manager.standby;

import io.cleave.manager.home.CleaveHome;
import io.cleave.manager.home.Secrets;

import java.sql.Connection;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The account a replica logs in to its primary's shard with: replication only, the same name and
 * password on both homes (made on each shard outside the binlog), so the old primary can replicate
 * from the new one after a promotion. Its password is {@code state/replication-secret} of the primary.
 */
public record ReplicationAccount(String user, String password) {

    public static final String USER = io.cleave.proxy.accounts.AccountScript.REPLICATION_USER;

    public ReplicationAccount {
        if (!password.matches("[0-9A-Za-z]+")) {
            throw new IllegalArgumentException("the replication password must be alphanumeric");
        }
    }

    /** The primary's account, its password made on first use. */
    static ReplicationAccount of(CleaveHome home) {
        return new ReplicationAccount(USER, Secrets.readOrCreate(home.state().resolve("replication-secret")));
    }

    /**
     * Keeps the primary's password as this home's own (a standby taking over): the old primary's shards,
     * which have the account with it, then replicate this home's with it, and a later switch back too.
     */
    static ReplicationAccount adopt(CleaveHome home, String password) throws java.io.IOException {
        ReplicationAccount account = new ReplicationAccount(USER, password);
        Secrets.replacePrivate(home.state().resolve("replication-secret"), password);
        return account;
    }

    /**
     * Makes the account right on one shard, outside the binlog (each home makes its own); {@code requirement}:
     * {@code REQUIRE SSL} where the shards offer TLS ({@link io.cleave.manager.standby.tls.ShardTls#accountRequirement}).
     */
    void ensure(Connection shard, String requirement) throws SQLException {
        if (!requirement.equals("REQUIRE SSL") && !requirement.equals("REQUIRE NONE")) {
            throw new IllegalArgumentException(requirement);
        }
        String account = "'" + user + "'@'%'";
        try (Statement s = shard.createStatement()) {
            s.execute("SET SESSION sql_log_bin = 0");
            try {
                s.execute("CREATE USER IF NOT EXISTS " + account + " IDENTIFIED BY '" + password + "'");
                s.execute("ALTER USER " + account + " IDENTIFIED BY '" + password + "' " + requirement);
                s.execute("GRANT REPLICATION SLAVE ON *.* TO " + account);
            } finally {
                s.execute("SET SESSION sql_log_bin = 1");
            }
        }
    }
}
