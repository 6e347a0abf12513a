package io.cleave.proxy.frontend;

import io.cleave.proxy.accounts.CleaveSchema;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.rewrite.BlockConditions;
import io.cleave.proxy.unique.LookupCalls;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;
import io.cleave.router.sql.ast.Query;
import io.cleave.router.sql.ast.Statement;
import io.cleave.router.sql.lex.TokenBuffer;
import io.cleave.router.sql.lex.TokenType;
import io.cleave.router.sql.parse.SqlParser;
import io.cleave.router.sql.parse.SqlSyntaxException;

import java.nio.charset.StandardCharsets;
import java.util.Locale;
import java.util.Map;

/**
 * Reads of the server's own tables that would show Cleave's own things, run with conditions that
 * leave them out: the shard account's rows of the grant tables (mysql.user, mysql.global_priv,
 * mysql.db, ..., mysql.roles_mapping) and of information_schema's privilege views, its connections
 * in information_schema.PROCESSLIST, Cleave's schema in information_schema.SCHEMATA and SHOW
 * DATABASES. The read runs as the client's account on the default shard; what it may see otherwise
 * is the shard's to decide. A form the conditions cannot be added to is refused.
 */
final class FilteredRead {

    private final Session session;

    FilteredRead(Session session) {
        this.session = session;
    }

    void run(Command command) {
        command.served(RouteKind.SINGLE_SHARD);
        if (namesShardAccount(command.analysis().tokens())) {
            command.refuse(1227, "42000", "Access denied: '" + session.runtime().accounts().shardAccountUser()
                    + "' is the account Cleave runs its own work on the shards with; no client may read it");
            return;
        }
        byte[] text = filtered(command);
        if (text == null) {
            command.refuse("this read of the server's own tables has a form the proxy cannot leave Cleave's own rows"
                    + " out of (the shard account, Cleave's schema): read them with a plain SELECT ... FROM ... WHERE");
            return;
        }
        int shard = session.runtime().topology().defaultShard();
        new MultiExchange(new CommandLegs(session, command), false, results -> {
            LegResult leg = results.get(0);
            if (!leg.ok()) {
                command.error(leg.errorPacket());
                return;
            }
            command.answer(leg.columns, leg.rows, leg.warnings);
        }).leg(shard, text).start();
    }

    /** The statement with the conditions in; null when they cannot be added. */
    private byte[] filtered(Command command) {
        Analysis analysis = command.analysis();
        TokenBuffer tokens = analysis.tokens();
        if (tokens.textEqualsIgnoreCase(0, "SHOW")) {
            // SHOW GRANTS FOR / SHOW CREATE USER: the shard account's are refused before this.
            return SqlRenderer.render(new SqlTemplate.Original(), analysis, command.values());
        }
        Statement statement;
        try {
            statement = new SqlParser().parse(tokens, analysis.digest());
        } catch (SqlSyntaxException e) {
            return null;
        }
        if (!(statement instanceof Query q)) {
            return null;
        }
        String shardUser = session.runtime().accounts().shardAccountUser();
        BlockConditions conditions = new BlockConditions((t, out) -> {
            String schema = t.name().schema() == null ? "" : t.name().schema().toLowerCase(Locale.ROOT);
            String column = HIDDEN.getOrDefault(schema + "." + t.name().name().toLowerCase(Locale.ROOT), null);
            if (column != null) {
                String value = column.equals("GRANTEE") ? "'''" + shardUser + "''@%'"
                        : column.equals("SCHEMA_NAME") ? "'" + CleaveSchema.NAME + "'" : "'" + shardUser + "'";
                String compare = column.equals("GRANTEE") ? " NOT LIKE " : " <> ";
                out.add(BlockConditions.quote(t.exposedName()) + "." + BlockConditions.quote(column) + compare + value);
            }
            if (column != null && column.equals("USER")) {
                // A limited account's lookup statements run on its own connections, sealed for the
                // proxy's procedure: shown while they run, a seal could be copied and replayed.
                String info = BlockConditions.quote(t.exposedName()) + "." + BlockConditions.quote("INFO");
                out.add("(" + info + " IS NULL OR " + info + " NOT LIKE 'CALL " + LookupCalls.PROCEDURE + "(%')");
            }
            return true;
        });
        if (!conditions.query(q)) {
            return null;
        }
        SqlTemplate template = BlockConditions.insert(new SqlTemplate.Original(), tokens.size(), conditions.inserts());
        return template == null ? null : SqlRenderer.render(template, analysis, command.values());
    }

    /** SHOW GRANTS FOR or SHOW CREATE USER of the shard account. */
    private boolean namesShardAccount(TokenBuffer tokens) {
        if (!tokens.textEqualsIgnoreCase(0, "SHOW")) {
            return false;
        }
        io.cleave.proxy.accounts.Accounts accounts = session.runtime().accounts();
        for (int i = 3; i < tokens.size(); i++) {
            TokenType t = tokens.type(i);
            if ((t == TokenType.STRING || t == TokenType.QUOTED_IDENTIFIER || t == TokenType.IDENTIFIER)
                    && accounts.isShardAccount(io.cleave.proxy.accounts.AccountStatement.unquote(tokens.text(i)))) {
                return true;
            }
        }
        return false;
    }

    /** Which column of each table tells Cleave's own rows. */
    private static final Map<String, String> HIDDEN = Map.ofEntries(
            Map.entry("mysql.user", "User"), Map.entry("mysql.global_priv", "User"), Map.entry("mysql.db", "User"),
            Map.entry("mysql.tables_priv", "User"), Map.entry("mysql.columns_priv", "User"),
            Map.entry("mysql.procs_priv", "User"), Map.entry("mysql.proxies_priv", "User"),
            Map.entry("mysql.roles_mapping", "User"),
            Map.entry("information_schema.user_privileges", "GRANTEE"),
            Map.entry("information_schema.schema_privileges", "GRANTEE"),
            Map.entry("information_schema.table_privileges", "GRANTEE"),
            Map.entry("information_schema.column_privileges", "GRANTEE"),
            Map.entry("information_schema.applicable_roles", "GRANTEE"),
            Map.entry("information_schema.processlist", "USER"),
            Map.entry("information_schema.schemata", "SCHEMA_NAME"));
}
