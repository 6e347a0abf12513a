package io.cleave.proxy.accounts;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Accounts and roles as statements: how a shard describes one (SHOW CREATE USER, SHOW GRANTS,
 * which also lists its roles and default role), and the statements that make a shard hold it as
 * described. Used to give a new shard the accounts the others have, and to undo an account
 * statement on the shards that applied it when another shard refused it.
 */
public final class AccountScript {

    /**
     * One account or role as a shard held it.
     *
     * @param create its CREATE USER statement (a role: CREATE ROLE), or null when it did not exist
     * @param grants its SHOW GRANTS lines (GRANT ..., SET DEFAULT ROLE ...)
     */
    public record Snapshot(AccountName name, boolean role, String create, List<String> grants) {
        public Snapshot {
            grants = List.copyOf(grants);
        }

        public static Snapshot absent(AccountName name, boolean role) {
            return new Snapshot(name, role, null, List.of());
        }

        public boolean exists() {
            return create != null;
        }
    }

    private AccountScript() {
    }

    /** Every account and role of a shard: user, host, whether a role. */
    public static String accountsQuery(String serverVersion) {
        return serverVersion.toLowerCase(Locale.ROOT).contains("mariadb")
                ? "SELECT User, Host, IFNULL(JSON_VALUE(Priv, '$.is_role'), 'false') FROM mysql.global_priv"
                : "SELECT User, Host, 'false' FROM mysql.user";
    }

    /** The replication-only account of a standby pair: each home makes it on its own shards, outside the binlog. */
    public static final String REPLICATION_USER = "cleave_repl";

    /**
     * Accounts the server or Cleave keep for themselves, never copied or shown: the shard account, the
     * replication account (a copy in the binlog would stop a standby's replica, which has its own), the
     * server's own (mariadb.sys, mysql.*), and PUBLIC (whose grants are copied apart).
     */
    public static boolean isInternal(AccountName name, String shardAccountUser) {
        String user = name.user();
        return user.equals(shardAccountUser) || user.equals(REPLICATION_USER) || user.equals("mariadb.sys")
                || user.startsWith("mysql.")
                || name.isRole() && user.equalsIgnoreCase("PUBLIC");
    }

    /** The statements that describe {@code name}: SHOW CREATE USER (not for a role), then SHOW GRANTS. */
    public static List<String> describe(AccountName name, boolean role) {
        return role ? List.of("SHOW GRANTS FOR " + name.sql())
                : List.of("SHOW CREATE USER " + name.sql(), "SHOW GRANTS FOR " + name.sql());
    }

    /** A role's CREATE statement (SHOW CREATE USER does not describe roles). */
    public static String createRole(AccountName role) {
        return "CREATE ROLE " + role.sql();
    }

    /**
     * Statements that create {@code snapshots} on a shard holding none of them: every account and
     * role first (a role made by the shard account is not left granted to it), then every grant,
     * as grants name roles and accounts that must exist. Grants on Cleave's own schema are left
     * out: the proxy makes those itself.
     */
    public static List<String> create(List<Snapshot> snapshots) {
        List<String> out = new ArrayList<>();
        for (Snapshot s : snapshots) {
            if (s.exists()) {
                out.add(s.create());
                if (s.role()) {
                    out.add("REVOKE " + s.name().sql() + " FROM CURRENT_USER");
                }
            }
        }
        for (Snapshot s : snapshots) {
            for (String grant : s.grants()) {
                if (!namesCleaveSchema(grant)) {
                    out.add(grant);
                }
            }
        }
        return out;
    }

    /**
     * Statements that put {@code snapshots} back as they were: each dropped (if it is there now),
     * then those that existed made again with their grants.
     */
    public static List<String> restore(List<Snapshot> snapshots) {
        List<String> out = new ArrayList<>();
        for (Snapshot s : snapshots) {
            out.add((s.role() ? "DROP ROLE IF EXISTS " : "DROP USER IF EXISTS ") + s.name().sql());
        }
        out.addAll(create(snapshots));
        return out;
    }

    /** Whether a GRANT line is about an object of the {@code cleave} schema. */
    static boolean namesCleaveSchema(String grant) {
        String g = grant.toLowerCase(Locale.ROOT);
        return g.contains(" on `cleave`.") || g.contains(" on cleave.") || g.contains(" on procedure `cleave`.")
                || g.contains(" on function `cleave`.");
    }
}
