package io.cleave.proxy.frontend;

import io.cleave.proxy.accounts.Account;
import io.cleave.proxy.accounts.AccountName;
import io.cleave.proxy.accounts.AccountScript;
import io.cleave.proxy.accounts.AccountStatement;
import io.cleave.proxy.accounts.Accounts;
import io.cleave.proxy.auth.Scrambles;
import io.cleave.proxy.backend.ShardCredential;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Account statements (CREATE/ALTER/DROP/RENAME USER, CREATE/DROP ROLE, GRANT, REVOKE, SET
 * PASSWORD, SET DEFAULT ROLE, FLUSH PRIVILEGES) on every shard, all or none, as the client's own
 * account, so each shard checks the client's privileges for it:
 * <ol>
 * <li>the accounts and roles it names (and the grantees of a role it drops) are described first,
 *     from the default shard, as the shard account (the client may not be allowed to read them);</li>
 * <li>the statement runs on every shard at once;</li>
 * <li>when every shard answered alike (all applied it, or all refused it with the same error, as
 *     one server would), that is the answer; when they differ, the described accounts are put back
 *     as they were on every shard and the client gets the refusing shard's error;</li>
 * <li>the proxy reads the grant tables again (later logins see the change), and backend
 *     connections made before are not lent again (the next statement runs with the privileges the
 *     accounts have now); a password set in clear text becomes what the proxy logs in to the shards
 *     with for that account.</li>
 * </ol>
 * Statements that name the shard account are refused.
 */
final class AccountStatements {

    private static final Logger log = LoggerFactory.getLogger(AccountStatements.class);

    private final Session session;

    AccountStatements(Session session) {
        this.session = session;
    }

    void run(Command command) {
        command.served(RouteKind.MULTI_SHARD);
        AccountStatement statement = AccountStatement.of(command.analysis().tokens());
        if (statement == null) {
            command.refuse("the proxy could not read which accounts this statement changes, so it cannot apply it to"
                    + " every shard alike");
            return;
        }
        Accounts accounts = session.runtime().accounts();
        Map<AccountName, Boolean> affected = new LinkedHashMap<>();
        for (AccountStatement.Name n : statement.named()) {
            AccountName name = resolve(n);
            if (accounts.isShardAccount(name.user())) {
                command.refuse(1227, "42000", "Access denied: '" + name.user() + "' is the account Cleave runs its"
                        + " own work on the shards with; no client may create, change, drop or grant it");
                return;
            }
            affected.put(name, name.isRole());
        }
        byte[] text = SqlRenderer.render(new SqlTemplate.Original(), command.analysis(), command.values());
        new Run(command, statement, text, affected).start();
    }

    /** A name as written: CURRENT_USER is the session's account; a name without a host a role if one is so named. */
    private AccountName resolve(AccountStatement.Name n) {
        if (n.current()) {
            return session.account().account().name();
        }
        if (n.host() != null) {
            return new AccountName(n.user(), n.host());
        }
        Account role = session.runtime().accounts().directory().find(AccountName.role(n.user()));
        return role != null ? role.name() : new AccountName(n.user(), "%");
    }

    /** One account statement's way: describe, apply, settle, read the grant tables again. */
    private final class Run {
        final Command command;
        final AccountStatement statement;
        final byte[] text;
        final Map<AccountName, Boolean> affected;
        final List<AccountScript.Snapshot> snapshots = new ArrayList<>();
        final int defaultShard = session.runtime().topology().defaultShard();

        Run(Command command, AccountStatement statement, byte[] text, Map<AccountName, Boolean> affected) {
            this.command = command;
            this.statement = statement;
            this.text = text;
            this.affected = affected;
        }

        void start() {
            if (statement.droppedRoles().isEmpty()) {
                describe(new ArrayList<>(affected.keySet()), 0);
                return;
            }
            // Dropping a role takes it from everyone it was granted to: they are put back too if need be.
            StringBuilder roles = new StringBuilder();
            for (String r : statement.droppedRoles()) {
                roles.append(roles.length() == 0 ? "" : ", ").append(SqlLiterals.string(r));
            }
            system(List.of("SELECT User, Host FROM mysql.roles_mapping WHERE Role IN (" + roles + ")"), result -> {
                for (var row : result.rows) {
                    String host = row.string(1);
                    AccountName grantee = host == null || host.isEmpty() ? AccountName.role(row.string(0))
                            : new AccountName(row.string(0), host);
                    affected.putIfAbsent(grantee, grantee.isRole());
                }
                describe(new ArrayList<>(affected.keySet()), 0);
            });
        }

        /** Step 1: account {@code i}'s state before, as the shard account reads it. */
        void describe(List<AccountName> names, int i) {
            if (i == names.size()) {
                apply();
                return;
            }
            AccountName name = names.get(i);
            boolean role = affected.get(name);
            List<String> queries = AccountScript.describe(name, role);
            system(queries, result -> {
                if (!result.ok()) {
                    // No such account (1133, 1141): undoing means dropping it if the statement made it.
                    snapshots.add(AccountScript.Snapshot.absent(name, role));
                } else {
                    String create = role ? AccountScript.createRole(name) : result.rows.get(0).string(0);
                    List<String> grants = new ArrayList<>();
                    for (int r = role ? 0 : 1; r < result.rows.size(); r++) {
                        grants.add(result.rows.get(r).string(0));
                    }
                    snapshots.add(new AccountScript.Snapshot(name, role, create, grants));
                }
                describe(names, i + 1);
            });
        }

        /** Step 2: the statement on every shard, as the client's account. */
        void apply() {
            MultiExchange multi = new MultiExchange(new CommandLegs(session, command), false, this::settle);
            for (int shard = 0, n = session.runtime().shardMaps().current().shardCount(); shard < n; shard++) {
                multi.leg(shard, text);
            }
            multi.start();
        }

        /** Step 3: one answer for all shards, or the state before put back everywhere. */
        void settle(List<LegResult> results) {
            LegResult refused = null;
            boolean alike = true;
            for (LegResult r : results) {
                if (!r.ok() && refused == null) {
                    refused = r;
                }
                ErrPacket first = results.get(0).ok() ? null : results.get(0).errorPacket();
                ErrPacket here = r.ok() ? null : r.errorPacket();
                alike &= first == null ? here == null : here != null && here.errorCode() == first.errorCode();
            }
            if (alike) {
                LegResult answer = results.get(0);
                reload(() -> {
                    if (answer.ok()) {
                        learnPasswords();
                        forgetDroppedRole();
                        command.ok(io.cleave.proxy.protocol.packet.server.OkPacket.of(answer.affectedRows, 0,
                                session.status(), answer.warnings));
                    } else {
                        command.error(answer.errorPacket());
                    }
                });
                return;
            }
            LegResult failed = refused;
            List<String> undo = AccountScript.restore(snapshots);
            // Undone where it was applied: a shard that refused it keeps what it had.
            List<Integer> shards = new ArrayList<>();
            for (LegResult r : results) {
                if (r.ok()) {
                    shards.add(r.shard);
                }
            }
            log.warn("connection {}: an account statement was refused by shard {} ({}) and applied elsewhere; putting"
                    + " {} back as they were on shards {}", session.connectionId(), failed.shard,
                    LogSafe.text(failed.errorPacket().message()), affected.keySet(), shards);
            MultiExchange restore = new MultiExchange(new SystemContext(session.loop()), false, restored -> {
                List<String> notUndone = new ArrayList<>();
                for (LegResult r : restored) {
                    if (!r.ok()) {
                        notUndone.add("shard " + r.shard + ": " + r.errorPacket().message());
                    }
                }
                if (!notUndone.isEmpty()) {
                    log.error("the accounts {} could not be put back on every shard ({}): the shards' accounts differ",
                            affected.keySet(), String.join("; ", notUndone));
                }
                ErrPacket e = failed.errorPacket();
                reload(() -> command.error(e.errorCode(), e.sqlState(), e.message() + " (on shard " + failed.shard
                        + "; the statement was undone on the shards that had applied it"
                        + (notUndone.isEmpty() ? "" : ", except " + String.join("; ", notUndone)) + ")"));
            });
            List<byte[]> statements = new ArrayList<>();
            for (String s : undo) {
                statements.add(s.getBytes(StandardCharsets.UTF_8));
            }
            for (int shard : shards) {
                restore.leg(shard, statements);
            }
            restore.start();
        }

        /** Step 4: the grant tables read again; connections made before are retired. */
        void reload(Runnable then) {
            new AccountReload(session.runtime(), session.loop()).run(defaultShard, then);
        }

        /**
         * A role the session has active and just dropped is no longer set on its next connections
         * (SET ROLE of a dropped role fails), as mariadb-dump's restore drops the role it worked with.
         */
        void forgetDroppedRole() {
            String active = session.settings().role();
            if (active != null && statement.droppedRoles().contains(active)) {
                session.settings(session.settings().withRole("NONE"));
            }
        }

        /** New passwords given in clear text: the proxy logs in to the shards as those accounts with them. */
        void learnPasswords() {
            for (Map.Entry<AccountStatement.Name, String> e : statement.passwords().entrySet()) {
                AccountName name = resolve(e.getKey());
                byte[] clear = e.getValue().getBytes(StandardCharsets.UTF_8);
                ShardCredential credential = clear.length == 0 ? ShardCredential.NONE
                        : new ShardCredential.NativeStage1(Scrambles.stage1(clear));
                session.runtime().accounts().passwordChanged(name, credential, clear);
            }
        }

        /** Runs {@code queries} one after the other on the default shard as the shard account; the first error stops nothing. */
        private void system(List<String> queries, java.util.function.Consumer<LegResult> then) {
            List<byte[]> statements = new ArrayList<>();
            for (String q : queries) {
                statements.add(q.getBytes(StandardCharsets.UTF_8));
            }
            new MultiExchange(new SystemContext(session.loop()), false, results -> then.accept(results.get(0)))
                    .leg(defaultShard, statements).start();
        }
    }
}
