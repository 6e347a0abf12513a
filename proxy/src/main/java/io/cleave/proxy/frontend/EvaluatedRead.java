package io.cleave.proxy.frontend;

import io.cleave.proxy.cutover.GhostRows;
import io.cleave.proxy.evaluate.EvaluationLimits;
import io.cleave.proxy.evaluate.TableCopy;
import io.cleave.proxy.merge.TextRow;
import io.cleave.proxy.metrics.RouteKind;
import io.cleave.proxy.session.Charset;
import io.cleave.proxy.session.SessionSettings;
import io.cleave.proxy.session.SessionSync;
import io.cleave.router.plan.Effects;
import io.cleave.router.plan.Plan;
import io.cleave.router.plan.SqlRenderer;
import io.cleave.router.plan.SqlTemplate;
import io.cleave.router.shardmap.Ghost;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.Topology;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * A read no merge answers, answered by one server ({@link Plan.Evaluate}): the tables' rows are
 * read from every shard that holds them, written into temporary tables of the same names and
 * definitions on one connection to the evaluating shard, and the client's statement runs there.
 * <ol>
 * <li>describe each table on the evaluating shard (SHOW CREATE TABLE and its columns);</li>
 * <li>read each table's rows from its shards, every value in a form that travels exactly, within
 *     the configured row and byte bounds (past them the statement is refused with 1235);</li>
 * <li>on one connection, in one round trip: the temporary tables and their rows as one
 *     multi-statement (the server stops at its first error, so no INSERT can reach a base table
 *     whose temporary twin was not created), the statement itself, then DROP TEMPORARY TABLE,
 *     which runs whatever went before, so the connection goes back to the pool as it came.</li>
 * </ol>
 * Every step runs on the client's own connections, as its account: what it reads is what the
 * account may read. The temporary tables alone are created through {@code cleave.temporary_table}
 * while {@link EvaluationGrant} lets that connection do so, so an account without CREATE
 * TEMPORARY TABLES can run the read it could run on one server.
 * Inside a transaction every step goes through the transaction's own connections, so it reads
 * the transaction's own writes. Every step runs in utf8mb4 but the client's statement, which runs
 * in the client's character set (see {@link #evaluationSettings}).
 */
final class EvaluatedRead {

    /** Most bytes of text the evaluating shard is sent in one statement (its max_allowed_packet is 16M by default). */
    private static final int MAX_SETUP_TEXT = 15 << 20;

    /** sql_mode values (and the combinations that include them) that leave column, key or table options out of SHOW CREATE TABLE. */
    private static final List<String> SHOW_CREATE_CHANGING_MODES = List.of("NO_FIELD_OPTIONS", "NO_KEY_OPTIONS",
            "NO_TABLE_OPTIONS", "MYSQL323", "MYSQL40", "ORACLE", "POSTGRESQL", "MSSQL", "DB2", "MAXDB");

    private final Session session;
    private final FanOutWrites writes;

    EvaluatedRead(Session session, FanOutWrites writes) {
        this.session = session;
        this.writes = writes;
    }

    void run(Command command, Plan.Route route, Plan.Evaluate evaluate) {
        String why = command.binary() && evaluate.valuesInSelectList() && hasParameters(command)
                ? "a value in the select list of a prepared statement may be a parameter, whose bound type the"
                + " statement's text with the value written in would not keep" : unsuited(route);
        if (why != null) {
            command.refuse(evaluate.mergeRefusal() + "; and it cannot be evaluated on one shard: " + why);
            return;
        }
        byte[] statement;
        try {
            statement = SqlRenderer.render(new SqlTemplate.Original(), command.analysis(), command.values());
        } catch (IllegalArgumentException | ArithmeticException e) {
            command.refuse(e.getMessage());
            return;
        }
        command.served(RouteKind.MULTI_SHARD);
        command.clearLongData();
        int[] shards = shardsRead(evaluate);
        SessionCuts cuts = session.cuts();
        boolean inTransaction = session.inTransaction();
        SessionSettings own = session.settingsFor(command);
        SessionSettings utf8 = evaluationSettings(own);
        if (!inTransaction && cuts.forRead(shards.length)) {
            // Every table is gathered at one cut, so no transaction across shards is seen half-committed.
            cuts.read(command, shards, utf8, atCut -> new Run(command, evaluate, statement, atCut, false, own, utf8)
                    .describe());
        } else if (inTransaction && cuts.forFirstRead(shards.length, false)) {
            cuts.join(command, shards, () -> new Run(command, evaluate, statement, new CommandLegs(session, command, utf8),
                    true, own, utf8).describe());
        } else {
            new Run(command, evaluate, statement, new CommandLegs(session, command, utf8), inTransaction, own, utf8)
                    .describe();
        }
    }

    /** Every shard the evaluation reads: those holding the gathered tables' rows, and the evaluating one. */
    private int[] shardsRead(Plan.Evaluate evaluate) {
        int count = session.runtime().shardMaps().current().shardCount();
        java.util.BitSet read = new java.util.BitSet();
        read.set(evaluate.shard());
        for (Plan.GatheredTable t : evaluate.tables()) {
            if (t.sharded()) {
                read.set(0, count);
            } else {
                read.set(t.homeShard());
            }
        }
        return read.stream().toArray();
    }

    private static boolean hasParameters(Command command) {
        io.cleave.router.sql.lex.TokenBuffer tokens = command.analysis().tokens();
        for (int i = 0; i < tokens.size(); i++) {
            if (tokens.type(i) == io.cleave.router.sql.lex.TokenType.PLACEHOLDER) {
                return true;
            }
        }
        return false;
    }

    /** Why this session or statement cannot be evaluated on one shard, or null. */
    private String unsuited(Plan.Route route) {
        Effects e = route.effects();
        if (route.lockingRead() || e.previousConnection() || e.usesLastInsertId() || !e.assignedVariables().isEmpty()
                || e.pin().pin() != io.cleave.router.plan.Pin.NONE) {
            return "it locks rows or leaves state on its connection";
        }
        if (session.connections().pins().holdsTemporaryTables()) {
            return "the session holds temporary tables, which could share names with the gathered ones";
        }
        String mode = session.settings().systemVariables().getOrDefault("sql_mode", "").toUpperCase(java.util.Locale.ROOT);
        for (String m : SHOW_CREATE_CHANGING_MODES) {
            if (mode.contains(m)) {
                return "the session's sql_mode " + m + " leaves options out of SHOW CREATE TABLE, from which the copies"
                        + " of the tables are made";
            }
        }
        return null;
    }

    /**
     * The settings the evaluation's own statements run with: the session's, in utf8mb4. Table
     * definitions, names and the copies' DDL are text the proxy reads and writes as UTF-8; in the
     * client's character set (the Debian mariadb client's utf8mb3, latin1) a name or ENUM member
     * it cannot hold would come back as '?'. The client's statement itself runs in the session's
     * own character set (see {@link Run#evaluate}).
     */
    private static SessionSettings evaluationSettings(SessionSettings own) {
        String results = own.systemVariables().get("character_set_results");
        String r = results == null ? "" : results.replace("'", "").toLowerCase(java.util.Locale.ROOT);
        boolean utf8mb4 = "utf8mb4".equalsIgnoreCase(own.clientCharset()) && (r.isEmpty() || r.equals("null")
                || r.equals("binary") || r.equals("utf8mb4"));
        return utf8mb4 ? own : own.withCharset(UTF8MB4);
    }

    private static final Charset UTF8MB4 = new Charset("utf8mb4", null);

    /** One evaluation's steps and what they found. */
    private final class Run {
        final Command command;
        final Plan.Evaluate evaluate;
        final byte[] statement;
        /** Whose connections every step uses: a cut's of its own, or the session's (its transaction's). */
        final ExchangeContext legs;
        final boolean inTransaction;
        final EvaluationLimits limits = session.runtime().evaluationLimits();
        /** The command's settings, with which the client's statement runs, and the evaluation's own (utf8mb4). */
        final SessionSettings own;
        final SessionSettings utf8;
        final List<TableCopy> copies = new ArrayList<>();
        final StringBuilder setup = new StringBuilder();
        long rows;
        long bytes;

        Run(Command command, Plan.Evaluate evaluate, byte[] statement, ExchangeContext legs, boolean inTransaction,
            SessionSettings own, SessionSettings utf8) {
            this.command = command;
            this.evaluate = evaluate;
            this.statement = statement;
            this.legs = legs;
            this.inTransaction = inTransaction;
            this.own = own;
            this.utf8 = utf8;
        }

        /** Step 1: every table's definition and columns, from the evaluating shard. */
        void describe() {
            List<byte[]> statements = new ArrayList<>();
            for (Plan.GatheredTable t : evaluate.tables()) {
                for (String s : TableCopy.describe(t.schema(), t.table())) {
                    statements.add(bytes(s));
                }
            }
            exchange(List.of(evaluate.shard()), List.of(statements), results -> {
                LegResult leg = results.get(0);
                try {
                    int row = 0;
                    for (Plan.GatheredTable t : evaluate.tables()) {
                        String create = text(leg.rows.get(row).bytes(1));
                        row++;
                        List<String[]> columns = new ArrayList<>();
                        while (row < leg.rows.size() && leg.rows.get(row).columns() == 4) {
                            TextRow r = leg.rows.get(row++);
                            columns.add(new String[] {text(r.bytes(0)), text(r.bytes(1)), text(r.bytes(2))});
                        }
                        // The procedure that creates the copy runs in its own schema: the name is qualified.
                        String schema = t.schema() != null ? t.schema() : session.settings().schema();
                        copies.add(TableCopy.of(schema, t.table(), create, columns));
                    }
                } catch (IllegalArgumentException | IndexOutOfBoundsException e) {
                    command.refuse(evaluate.mergeRefusal() + "; and it cannot be evaluated on one shard: "
                            + e.getMessage());
                    return;
                }
                if (copies.stream().anyMatch(TableCopy::hasTimestamps)) {
                    setup.append("SET @cleave_time_zone = @@session.time_zone, time_zone = '+00:00';\n");
                }
                gather(0);
            });
        }

        /** Step 2: table {@code i}'s rows from the shards that hold them. */
        void gather(int i) {
            if (i == copies.size()) {
                evaluate();
                return;
            }
            Plan.GatheredTable t = evaluate.tables().get(i);
            TableCopy copy = copies.get(i);
            ShardMap map = session.runtime().shardMaps().current();
            Topology topology = session.runtime().topology();
            List<Integer> shards = new ArrayList<>();
            List<List<byte[]>> statements = new ArrayList<>();
            for (int shard = 0; shard < map.shardCount(); shard++) {
                if (t.sharded() || shard == t.homeShard()) {
                    shards.add(shard);
                    statements.add(List.of(bytes(copy.gatherSelect(notGhosts(t, shard, map, topology),
                            limits.maxRows() + 1))));
                }
            }
            exchange(shards, statements, results -> {
                setup.append(copy.createStatement()).append(";\n");
                String head = copy.insertHead();
                StringBuilder insert = new StringBuilder(head);
                int inInsert = 0;
                for (LegResult leg : results) {
                    for (TextRow row : leg.rows) {
                        rows++;
                        bytes += row.data().length;
                        if (rows > limits.maxRows() || bytes > limits.maxBytes()) {
                            command.refuse(evaluate.mergeRefusal() + "; and evaluating it on one shard would gather"
                                    + " more than " + (rows > limits.maxRows() ? limits.maxRows() + " rows"
                                    : limits.maxBytes() + " bytes") + " (proxy.evaluate_max_rows,"
                                    + " proxy.evaluate_max_bytes): give the sharding key, or narrow the query");
                            return;
                        }
                        if (inInsert > 0) {
                            insert.append(',');
                        }
                        try {
                            copy.appendRow(insert, row::bytes);
                        } catch (IllegalArgumentException e) {
                            command.refuse(evaluate.mergeRefusal() + "; and it cannot be evaluated on one shard: "
                                    + e.getMessage());
                            return;
                        }
                        if (++inInsert == 1000) {
                            setup.append(insert).append(";\n");
                            insert.setLength(0);
                            insert.append(head);
                            inInsert = 0;
                        }
                    }
                }
                if (inInsert > 0) {
                    setup.append(insert).append(";\n");
                }
                if (setup.length() > MAX_SETUP_TEXT) {
                    command.refuse(evaluate.mergeRefusal() + "; and evaluating it on one shard would send more than "
                            + MAX_SETUP_TEXT + " bytes to it: give the sharding key, or narrow the query");
                    return;
                }
                gather(i + 1);
            });
        }

        /** Step 3: temporary tables, the statement, and the tables dropped, on one connection. */
        void evaluate() {
            StringBuilder drop = new StringBuilder("DROP TEMPORARY TABLE IF EXISTS ");
            for (int i = 0; i < copies.size(); i++) {
                drop.append(i == 0 ? "" : ", ").append(copies.get(i).qualified());
            }
            List<byte[]> statements = new ArrayList<>();
            boolean utc = setup.indexOf("SET @cleave_time_zone") == 0;
            if (utc) {
                // The statement runs in the session's time zone; a setup that failed part way is restored below.
                setup.append("SET time_zone = @cleave_time_zone;\n");
            }
            String text = setup.toString();
            statements.add(bytes(text.substring(0, text.length() - 2)));
            // The client's statement in the client's character set, so the server answers it as
            // it answers the client: its text read, its column definitions and values converted,
            // characters the set cannot hold, as one server does. Back to utf8mb4 for the DROP.
            String toClient = SessionSync.between(utf8, own).setStatement();
            if (toClient != null) {
                statements.add(bytes(toClient));
            }
            statements.add(statement);
            if (toClient != null) {
                statements.add(bytes(SessionSync.between(own, utf8).setStatement()));
            }
            statements.add(bytes(drop.toString()));
            if (utc) {
                statements.add(bytes("SET time_zone = @cleave_time_zone, @cleave_time_zone = NULL"));
            }
            exchange(List.of(evaluate.shard()), List.of(statements), new EvaluationGrant(session), results -> {
                LegResult leg = results.get(0);
                if (command.binary() && roundedInText(leg)) {
                    command.refuse(evaluate.mergeRefusal() + "; and evaluated on one shard, its FLOAT or DOUBLE"
                            + " column with fixed decimals comes back rounded in the text protocol, while a prepared"
                            + " statement's client expects every digit");
                    return;
                }
                command.answer(leg.columns, leg.rows, leg.warnings);
            });
        }

        /** Runs one statement list per shard; {@code then} gets the results when every shard answered without error. */
        private void exchange(List<Integer> shards, List<List<byte[]>> statements, Consumer<List<LegResult>> then) {
            exchange(shards, statements, null, then);
        }

        private void exchange(List<Integer> shards, List<List<byte[]>> statements, MultiExchange.LegGate gate,
                              Consumer<List<LegResult>> then) {
            MultiExchange multi = new MultiExchange(legs, inTransaction, results -> {
                for (LegResult leg : results) {
                    if (!leg.ok()) {
                        writes.afterTransactionalLegs(command, results, () -> command.error(leg.errorPacket()));
                        return;
                    }
                }
                then.accept(results);
            });
            for (int i = 0; i < shards.size(); i++) {
                multi.leg(shards.get(i), statements.get(i));
            }
            multi.gate(gate).start();
        }
    }

    /** A FLOAT or DOUBLE column the server formats with fewer decimals in text than the binary protocol carries. */
    private static boolean roundedInText(LegResult leg) {
        for (io.cleave.proxy.merge.ResultColumn c : leg.columns) {
            if (c.type().isFloatingPoint() && c.definition().decimals() < NOT_FIXED_DECIMALS) {
                return true;
            }
        }
        return false;
    }

    /** The decimals of a column whose text shows every digit of its value. */
    private static final int NOT_FIXED_DECIMALS = 31;

    /** The condition that leaves out a running move's ghost rows of {@code t} on {@code shard}, or null. */
    private static String notGhosts(Plan.GatheredTable t, int shard, ShardMap map, Topology topology) {
        if (!t.sharded()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        String column = "`" + t.table().replace("`", "``") + "`.`" + t.shardingColumn().replace("`", "``") + "`";
        for (Ghost g : map.ghosts()) {
            if (g.shard() == shard && g.keyspace().equals(t.keyspace())) {
                out.add(GhostRows.notGhost(column, g, topology.keyspace(g.keyspace()).function().bucketCount()));
            }
        }
        return out.isEmpty() ? null : String.join(" AND ", out);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static String text(byte[] b) {
        return b == null ? "" : new String(b, StandardCharsets.UTF_8);
    }
}
