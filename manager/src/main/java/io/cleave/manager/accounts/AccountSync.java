package io.cleave.manager.accounts;

import io.cleave.manager.config.ProxyUser;
import io.cleave.manager.instance.Flavour;
import io.cleave.manager.move.ShardLinks;
import io.cleave.proxy.accounts.AccountName;
import io.cleave.proxy.accounts.AccountScript;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Keeps every shard holding the same accounts. At the first start of a home the config's
 * {@code proxy.users} are created on every shard (and the accounts the datadir template came with
 * are dropped); from then on the shards' grant tables are the truth, changed by account statements
 * through the proxy, and a shard that lacks them (added by {@code cleave scale}, or down at the first
 * start) gets a copy of another shard's. A marker in each datadir records that its shard holds them.
 * Runs as the shard account, over the mover's JDBC connections.
 */
public final class AccountSync {

    private static final Logger log = LoggerFactory.getLogger(AccountSync.class);
    static final String MARKER = "cleave-accounts";

    private final List<ProxyUser> bootstrap;
    private final ShardLinks links;
    private final String shardAccountUser;
    private final Flavour flavour;
    private final String serverVersion;

    public AccountSync(List<ProxyUser> bootstrap, ShardLinks links, String shardAccountUser, Flavour flavour) {
        this.bootstrap = List.copyOf(bootstrap);
        this.links = links;
        this.shardAccountUser = shardAccountUser;
        this.flavour = flavour;
        this.serverVersion = flavour.isMysqlFamily() ? "8.0.0" : "10.11.0-MariaDB";
    }

    /**
     * Makes each of {@code datadirs}' shards (by index, all running) hold the accounts: copied
     * from a shard that holds them, or, when none does yet (the first start), created from the
     * config.
     */
    public synchronized void ensure(Map<Integer, Path> datadirs) {
        Integer source = null;
        for (Map.Entry<Integer, Path> e : datadirs.entrySet()) {
            if (holds(e.getValue())) {
                source = e.getKey();
                break;
            }
        }
        for (Map.Entry<Integer, Path> e : datadirs.entrySet()) {
            if (holds(e.getValue())) {
                continue;
            }
            try (Connection c = links.open(e.getKey())) {
                if (source == null) {
                    dropTemplateAccounts(c);
                    run(c, BootstrapAccounts.statements(bootstrap, flavour));
                    log.info("shard {}: created the accounts of proxy.users ({})", e.getKey(), names());
                } else {
                    dropTemplateAccounts(c);
                    List<AccountScript.Snapshot> accounts;
                    try (Connection from = links.open(source)) {
                        accounts = snapshots(from);
                    }
                    run(c, AccountScript.create(accounts));
                    log.info("shard {}: copied {} accounts and roles from shard {}", e.getKey(), accounts.size(), source);
                }
                mark(e.getValue());
            } catch (SQLException ex) {
                throw new IllegalStateException("cannot give shard " + e.getKey() + " its accounts: " + ex.getMessage(), ex);
            }
        }
    }

    /**
     * A standby's new replica of a shard its primary added (a scale): the primary copies the accounts to its
     * shard in the binlog, so they arrive replicated; here only the template's own accounts go, outside the
     * binlog, as the primary's shard dropped them (a replicated CREATE USER of one would stop the replica).
     * The shard then counts as holding the accounts.
     */
    public synchronized void expectReplicated(int shard, Path datadir) {
        if (holds(datadir)) {
            return;
        }
        try (Connection c = links.open(shard)) {
            dropTemplateAccounts(c);
            mark(datadir);
        } catch (SQLException ex) {
            throw new IllegalStateException("cannot prepare shard " + shard + " for its replicated accounts: "
                    + ex.getMessage(), ex);
        }
    }

    /**
     * One user account as a primary's shard has it, and the statements that make it again elsewhere
     * (SHOW CREATE USER with its password hash, then its grants).
     */
    public record AccountCopy(String user, String host, List<String> statements) {
    }

    /** The clients' user accounts of a shard (Cleave's and the server's own left out) as copies. */
    public List<AccountCopy> userCopies(Connection c) throws SQLException {
        List<AccountCopy> out = new ArrayList<>();
        for (AccountScript.Snapshot s : snapshots(c)) {
            if (!s.role()) {
                out.add(new AccountCopy(s.name().user(), s.name().host(), AccountScript.create(List.of(s))));
            }
        }
        return out;
    }

    /**
     * Makes a standby's shards hold exactly the primary's user accounts before they become primaries, all
     * outside the binlog. They hold the primary's that a backup carries and that were made since
     * (replicated), but also their own template's, which the primary dropped before the standby was seeded,
     * and not the config's users, which a backup leaves out: the primary's shards, replicating these once
     * the roles swap, would stop at a DROP USER of an account they lack, and the primary's clients could
     * not log in here. The shards then count as holding the accounts (no bootstrap of the config's).
     */
    public synchronized void adoptReplicated(Map<Integer, Path> datadirs, List<AccountCopy> primary) {
        java.util.Set<String> wanted = new java.util.HashSet<>();
        for (AccountCopy a : primary) {
            wanted.add(a.user() + "@" + a.host());
        }
        for (Map.Entry<Integer, Path> e : datadirs.entrySet()) {
            if (holds(e.getValue())) {
                continue;
            }
            try (Connection c = links.open(e.getKey())) {
                run(c, List.of("SET SESSION sql_log_bin = 0"));
                java.util.Set<String> present = new java.util.HashSet<>();
                for (AccountName name : userAccounts(c)) {
                    present.add(name.user() + "@" + name.host());
                    if (!wanted.contains(name.user() + "@" + name.host())
                            && !AccountScript.isInternal(name, shardAccountUser)) {
                        run(c, List.of("DROP USER " + name.sql()));
                        log.info("shard {}: dropped {}, an account of its template the primary does not have",
                                e.getKey(), name);
                    }
                }
                for (AccountCopy a : primary) {
                    if (!present.contains(a.user() + "@" + a.host())) {
                        run(c, a.statements());
                        log.info("shard {}: made the primary's account '{}'@'{}'", e.getKey(), a.user(), a.host());
                    }
                }
                mark(e.getValue());
            } catch (SQLException ex) {
                throw new IllegalStateException("cannot give shard " + e.getKey() + " the primary's accounts: "
                        + ex.getMessage(), ex);
            }
        }
    }

    /** A MariaDB shard's user accounts (roles left out). */
    static List<AccountName> userAccounts(Connection c) throws SQLException {
        List<AccountName> out = new ArrayList<>();
        for (String[] row : rows(c, "SELECT user, host FROM mysql.user WHERE is_role = 'N'")) {
            out.add(new AccountName(row[0], row[1]));
        }
        return out;
    }

    /** Whether a shard's datadir records that it holds the accounts. */
    public static boolean holds(Path datadir) {
        return Files.isRegularFile(datadir.resolve(MARKER));
    }

    /** Every account and role of a shard as statements can make them again (Cleave's and the server's own left out). */
    List<AccountScript.Snapshot> snapshots(Connection c) throws SQLException {
        List<AccountScript.Snapshot> out = new ArrayList<>();
        for (String[] row : rows(c, AccountScript.accountsQuery(serverVersion))) {
            boolean role = row[2].equalsIgnoreCase("true") || row[2].equals("1");
            AccountName name = role ? AccountName.role(row[0]) : new AccountName(row[0], row[1]);
            if (AccountScript.isInternal(name, shardAccountUser)) {
                continue;
            }
            List<String> describe = AccountScript.describe(name, role);
            String create = role ? AccountScript.createRole(name) : rows(c, describe.get(0)).get(0)[0];
            List<String> grants = new ArrayList<>();
            for (String[] grant : rows(c, describe.get(describe.size() - 1))) {
                grants.add(grant[0]);
            }
            out.add(new AccountScript.Snapshot(name, role, create, grants));
        }
        List<String> publicGrants = new ArrayList<>();
        if (!flavour.isMysqlFamily()) {
            for (String[] grant : rows(c, "SHOW GRANTS FOR PUBLIC")) {
                publicGrants.add(grant[0]);
            }
        }
        out.add(new AccountScript.Snapshot(AccountName.role("PUBLIC"), true, null, publicGrants));
        return out;
    }

    /**
     * The accounts a datadir template comes with (root in several forms, anonymous ones): nobody's,
     * once Cleave runs it. Other accounts stay: a restore puts a backup's accounts on shards that
     * have not held the bootstrap yet. Dropped outside the binlog: they are this server's own (its host
     * name in them), and a replica of it (a promoted standby's old primary, rejoined) never had them.
     */
    private void dropTemplateAccounts(Connection c) throws SQLException {
        List<String> drops = new ArrayList<>();
        for (String[] row : rows(c, AccountScript.accountsQuery(serverVersion))) {
            boolean role = row[2].equalsIgnoreCase("true") || row[2].equals("1");
            AccountName name = role ? AccountName.role(row[0]) : new AccountName(row[0], row[1]);
            boolean template = !role && (name.user().equals("root") || name.user().isEmpty());
            if (template && !AccountScript.isInternal(name, shardAccountUser)) {
                drops.add("DROP USER IF EXISTS " + name.sql());
            }
        }
        if (drops.isEmpty()) {
            return;
        }
        run(c, List.of("SET SESSION sql_log_bin = 0"));
        try {
            run(c, drops);
        } finally {
            run(c, List.of("SET SESSION sql_log_bin = 1"));
        }
    }

    private String names() {
        return String.join(", ", bootstrap.stream().map(ProxyUser::name).toList());
    }

    private static void run(Connection c, List<String> statements) throws SQLException {
        try (Statement st = c.createStatement()) {
            for (String sql : statements) {
                st.execute(sql);
            }
        }
    }

    private static List<String[]> rows(Connection c, String sql) throws SQLException {
        List<String[]> out = new ArrayList<>();
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            int n = rs.getMetaData().getColumnCount();
            while (rs.next()) {
                String[] row = new String[n];
                for (int i = 0; i < n; i++) {
                    row[i] = rs.getString(i + 1);
                }
                out.add(row);
            }
        }
        return out;
    }

    private static void mark(Path datadir) {
        try {
            Files.writeString(datadir.resolve(MARKER), "accounts in the grant tables\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the accounts marker in " + datadir, e);
        }
    }
}
