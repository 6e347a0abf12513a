package io.cleave.proxy.frontend;

import io.cleave.proxy.deadlock.TrackedTransaction;
import io.cleave.proxy.metrics.ProxyMetrics;
import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.ServerStatus;
import io.cleave.proxy.server.LoopResources;
import io.cleave.proxy.server.ProxyRuntime;
import io.cleave.proxy.session.Charset;
import io.cleave.proxy.session.SessionSettings;
import io.cleave.router.plan.Analysis;
import io.cleave.router.plan.LiteralParameters;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.Target;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.sql.ast.StatementKind;
import io.cleave.router.sql.lex.SqlMode;
import io.netty.buffer.ByteBuf;

import java.util.ArrayList;
import java.util.List;
import java.util.function.IntFunction;

/**
 * What one client session keeps from command to command: who it is, its settings, its last insert
 * id, its prepared statements, and the backend connections it holds. The command handlers share
 * it; what belongs to one command only travels in its {@link Command}.
 */
final class Session {

    private final ProxyRuntime runtime;
    private final LoopResources loop;
    private final ClientOutput output;
    private final long connectionId;
    private final Capabilities capabilities;
    private final SessionConnections connections;
    /** The session's transaction as the deadlock detector sees it. */
    private final TrackedTransaction tracked;
    private final ClientStatements statements = new ClientStatements();
    private final LiteralParameters literals = new LiteralParameters();
    private SessionAccount account;
    /** The character set a reset goes back to: the handshake's, or the last COM_CHANGE_USER's. */
    private Charset loginCharset;
    private SessionSettings settings;
    /** {@link #settings} counting AUTO_INCREMENT by one, made when first needed. */
    private SessionSettings countingByOne;
    private SqlMode sqlMode = SqlMode.DEFAULT;
    private long lastInsertId;
    /** ROW_COUNT() of the session's previous statement, whichever shards ran it. */
    private long rowCount = -1;
    /** FOUND_ROWS(): the rows of the session's last result set (without LIMIT for SQL_CALC_FOUND_ROWS). */
    private long foundRows;
    private boolean multiStatements;
    private long transactionSequence;
    /** Made once: a method reference per statement would be an allocation on the hot path. */
    private final IntFunction<String> xids = this::newXid;
    private final SessionCuts cuts = new SessionCuts(this);

    Session(ProxyRuntime runtime, LoopResources loop, ClientOutput output, long connectionId, SessionAccount account,
            Capabilities capabilities, Charset loginCharset) {
        this.runtime = runtime;
        this.loop = loop;
        this.output = output;
        this.connectionId = connectionId;
        this.account = account;
        this.capabilities = capabilities;
        this.loginCharset = loginCharset;
        this.multiStatements = capabilities.multiStatements();
        this.tracked = runtime.deadlocks().track(connectionId, account.user(), loop);
        // Room for the shards there are now; more is made as a scale adds shards (see TransactionState#ensure).
        int shards = Math.max(1, runtime.slots().extent());
        this.connections = new SessionConnections(shards, tracked);
        tracked.ensure(shards);
        output.capabilities(capabilities);
        runtime.processes().add(this);
    }

    ProxyRuntime runtime() {
        return runtime;
    }

    LoopResources loop() {
        return loop;
    }

    ClientOutput output() {
        return output;
    }

    ProxyMetrics metrics() {
        return runtime.metrics();
    }

    long connectionId() {
        return connectionId;
    }

    /** The user name the client logged in with. */
    String user() {
        return account.user();
    }

    /** Who the session is: its account and the backend login its statements run with. */
    /**
     * How this session reaches the lookups of global unique keys: as its account itself when it may
     * read and write every table (Cleave's schema included), else through Cleave's procedure.
     */
    io.cleave.proxy.unique.LookupCalls lookupCalls() {
        return account != null && account.account() != null && account.account().readsAndWritesEveryTable()
                ? io.cleave.proxy.unique.LookupCalls.DIRECT : runtime.lookupCalls();
    }

    SessionAccount account() {
        return account;
    }

    /** The backend login of the session's statements: the client's account, its route and response profile. */
    io.cleave.proxy.backend.ShardLogin shardLogin() {
        return account.shardLogin();
    }

    /** The address the client connected from ("localhost" over the Unix socket), as a server shows it. */
    String clientHost() {
        if (io.cleave.proxy.proxyprotocol.ClientEndpoint.of(output.channel()) instanceof java.net.InetSocketAddress address) {
            return address.getAddress().getHostAddress();
        }
        return "localhost";
    }


    /** Whose statement waits in a pool's line, for the deadlock detector. */
    TrackedTransaction tracked() {
        return tracked;
    }

    SessionConnections connections() {
        return connections;
    }

    TransactionState transaction() {
        return connections.transaction();
    }

    ClientStatements statements() {
        return statements;
    }

    SessionSettings settings() {
        return settings;
    }

    void settings(SessionSettings updated) {
        this.settings = updated;
        this.countingByOne = null;
        String mode = updated.systemVariables().get("sql_mode");
        sqlMode = (mode == null ? SqlMode.DEFAULT : SqlMode.fromSqlMode(unquote(mode)))
                .withClientCharset(updated.clientCharset());
    }

    /**
     * The settings {@code command}'s statement runs with. The shards count AUTO_INCREMENT in steps
     * of the shard count, each from its own offset, so that a sharded table's ids never meet; an
     * INSERT into a table that lives on one shard (or the same on every shard) counts by one
     * instead, as one server does, unless the session chose its own step. A home of one shard
     * (and no attached server) counts by one already: its shard steps by the shard count, 1, so
     * setting the step there would only cost a SET before and after every INSERT of a transaction.
     */
    SessionSettings settingsFor(Command command) {
        if (!(countsByOne(command.plan()) || command.countsByOne()) || settings.systemVariables().containsKey(AUTO_INCREMENT_INCREMENT)
                || settings.systemVariables().containsKey(AUTO_INCREMENT_OFFSET) || stepsByOneAlready()) {
            return settings;
        }
        if (countingByOne == null) {
            countingByOne = settings.withSystemVariable(AUTO_INCREMENT_INCREMENT, "1")
                    .withSystemVariable(AUTO_INCREMENT_OFFSET, "1");
        }
        return countingByOne;
    }

    private boolean stepsByOneAlready() {
        ShardMap map = runtime.shardMaps().current();
        return map.shardCount() == 1 && map.attached().isEmpty();
    }

    private static final String AUTO_INCREMENT_INCREMENT = "auto_increment_increment";
    private static final String AUTO_INCREMENT_OFFSET = "auto_increment_offset";

    private static boolean countsByOne(Plan plan) {
        if (plan instanceof Plan.MultiStatement multi) {
            plan = multi.plan();
        }
        return plan instanceof Plan.Route r && ((r.kind() == StatementKind.INSERT || r.kind() == StatementKind.REPLACE)
                && (r.target() instanceof Target.Shard || r.target() instanceof Target.AllShards)
                || r.target() instanceof Target.DefaultShard d && d.autoIncrementStep());
    }

    SqlMode sqlMode() {
        return sqlMode;
    }

    long rowCount() {
        return rowCount;
    }

    void rowCount(long rows) {
        this.rowCount = rows;
    }

    long foundRows() {
        return foundRows;
    }

    void foundRows(long rows) {
        this.foundRows = rows;
    }

    long lastInsertId() {
        return lastInsertId;
    }

    void lastInsertId(long id) {
        this.lastInsertId = id;
    }

    boolean multiStatements() {
        return multiStatements;
    }

    void multiStatements(boolean on) {
        this.multiStatements = on;
    }

    /** The decoder of the client's text (string keys), null when Java has none for its character set. */
    java.nio.charset.Charset javaCharset() {
        return settings.clientJavaCharset();
    }

    /** The literal values of the text statement just analyzed (reused: valid as long as the analysis). */
    LiteralParameters literals(Analysis analysis) {
        return literals.bind(analysis, javaCharset());
    }

    /** Status flags for the client: autocommit, and whether it is in a transaction. */
    int status() {
        int status = settings.autocommit() ? ServerStatus.AUTOCOMMIT : 0;
        if (connections.transaction().active()) {
            status |= ServerStatus.IN_TRANS;
        }
        return status;
    }

    /** Whether a statement now belongs to a transaction (so it joins it on its shard). */
    boolean inTransaction() {
        return connections.transaction().active() || !settings.autocommit();
    }

    /**
     * Whether {@code command}'s statement belongs to a transaction: not one that commits
     * implicitly, which runs outside any (the transaction before it was committed first).
     */
    boolean inTransaction(Command command) {
        return inTransaction() && !ImplicitCommit.before(command.plan());
    }

    /** The shard for a statement any shard can serve: where the session already works, else the next in turn. */
    int anyShard() {
        int inUse = connections.shardInUse();
        return inUse >= 0 ? inUse : loop.nextAnyShard();
    }

    /**
     * What to send a shard ahead of {@code command}'s statement: joining the transaction (START
     * TRANSACTION on the first shard, XA START on others), and the session's LAST_INSERT_ID when
     * the statement reads it (the connection's own belongs to whoever used it last).
     */
    List<String> preamble(int shard, boolean inTransaction, Command command) {
        List<String> out = connections.transaction().preamble(shard, inTransaction, xids);
        if (command != null && command.effects().usesLastInsertId()) {
            out = out == null ? new ArrayList<>(1) : out;
            out.add("DO LAST_INSERT_ID(" + lastInsertId + ")");
        }
        return out;
    }

    /**
     * A new XA id: {@code cleave:<coordinator shard>:<proxy run>:<connection>:<sequence>}. Recovery
     * reads the coordinator from it to find the commit decision.
     */
    private String newXid(int coordinator) {
        return "cleave:" + coordinator + ":" + runtime.runId() + ":" + connectionId + ":" + (++transactionSequence);
    }

    /** Makes XA ids for the session's transactions (see {@link #newXid}). */
    IntFunction<String> xids() {
        return xids;
    }

    /** When and how the session's reads take consistent cuts. */
    SessionCuts cuts() {
        return cuts;
    }

    /** Login succeeded: the schema the client asked for is taken as given. */
    void start(String schema) {
        settings(SessionSettings.initial(schema, loginCharset));
    }

    /**
     * COM_RESET_CONNECTION and COM_CHANGE_USER: the session starts over. Statements, transaction,
     * temporary tables and locks go; an open transaction rolls back with its connection.
     */
    void reset(String schema, Charset charset) {
        if (charset != null) {
            loginCharset = charset;
        }
        statements.clear();
        connections.dropAll();
        connections.transaction().end();
        settings(SessionSettings.initial(schema, loginCharset));
        lastInsertId = 0;
    }

    /** COM_CHANGE_USER succeeded (the new account admitted already): the session starts over as it. */
    void loggedInAs(SessionAccount changed, String schema, Charset charset) {
        runtime.accounts().left(account.account().name());
        account = changed;
        tracked.user(changed.user());
        reset(schema, charset);
    }

    /**
     * The client is gone: its statements' data and every connection it borrowed go (an open
     * transaction dies with it, as on a real server), and one that arrives later goes straight back.
     */
    void closed() {
        runtime.processes().remove(this);
        runtime.accounts().left(account.account().name());
        statements.clear();
        runtime.deadlocks().untrack(tracked);
        connections.clientLeft();
    }

    /**
     * A statement of this session dropped a schema (on every shard). If it was the session's current one, the
     * session has none now, as on a server. (MariaDB flags any DROP DATABASE, so the statement says which.) If the
     * shard map refused it ({@link RefusedDatabases}), the runtime is told: the name is free again.
     */
    void databaseDropped(Command command) {
        String schema = settings.schema();
        java.util.Map<String, String> refused = runtime.shardMaps().current().refusedDatabases();
        if (schema == null && refused.isEmpty() || command.command() != io.cleave.proxy.protocol.packet.client.CommandCode.QUERY
                || command.payload() == null) {
            return;
        }
        ByteBuf p = command.payload();
        byte[] sql = new byte[p.readableBytes() - 1];
        p.getBytes(p.readerIndex() + 1, sql);
        String dropped = DroppedSchema.of(sql, sqlMode);
        if (dropped != null && dropped.equals(schema)) {
            settings(settings.withSchema(null));
        }
        if (dropped != null && refused.containsKey(dropped)) {
            runtime.refusedDatabaseDropped().accept(dropped);
        }
    }

    private static String unquote(String literal) {
        if (literal.length() >= 2 && literal.charAt(0) == '\'' && literal.charAt(literal.length() - 1) == '\'') {
            return literal.substring(1, literal.length() - 1).replace("''", "'");
        }
        return literal;
    }
}
