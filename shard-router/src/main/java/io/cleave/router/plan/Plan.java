package io.cleave.router.plan;

import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.sql.ast.StatementKind;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * What to do with one statement: a small tree of primitives, decided once per statement shape
 * (digest) and cached, so that each execution only resolves its values against it (the keys of
 * its target, its LIMIT, the names its pins take). Data, not behaviour: the proxy's executor
 * interprets it.
 *
 * <pre>
 * Route          to the shards its target resolves to: one shard relays the client's own text,
 *   └ several:   Merge | FanOutWrite | Refuse   (null: the target is never more than one shard)
 * InsertSplit    rows grouped by their key's shard, one statement per shard
 * Session        SET, USE, transaction control: kept by the proxy
 * Local          answered by the proxy
 * Refuse         an error, never a wrong answer
 * MultiStatement several statements in one text, around the plan of the whole text
 * </pre>
 */
public sealed interface Plan
        permits Plan.Route, Plan.InsertSplit, Plan.Session, Plan.Local, Plan.Refuse, Plan.MultiStatement {

    StatementKind kind();

    /** How a routed statement takes part in the session's transaction. */
    enum Access {
        READ,
        /** SELECT ... FOR UPDATE / LOCK IN SHARE MODE: counts as a write for the transaction's commit. */
        LOCKING_READ,
        /** Changes data (decides transaction handling and broadcasting). */
        WRITE
    }

    /**
     * What a {@link Route} does when its target resolves to more than one shard. A merge or a
     * fan-out write carries the {@link ScatterRule}s that make it exact; {@link PlanGate} refuses
     * any that carries none.
     */
    sealed interface Spread permits Merge, FanOutWrite, Evaluate, Refuse {
    }

    /**
     * Send the statement to the shards its target resolves to. On one shard the client's own text
     * goes as it came (the hot path); on several, {@code several} decides (null when the target can
     * only ever be one shard).
     */
    record Route(StatementKind kind, Target target, Access access, Effects effects, Spread several,
                 UniqueProbe probe) implements Plan {

        public Route(StatementKind kind, Target target, Access access, Effects effects, Spread several) {
            this(kind, target, access, effects, several, null);
        }

        /** A statement with no effects on its connection beyond its result. */
        public static Route of(StatementKind kind, Target target, Access access, Spread several) {
            return new Route(kind, target, access, Effects.NONE, several);
        }

        public Route with(Effects changed) {
            return new Route(kind, target, access, changed, several, probe);
        }

        /** The route, with what it says of its table's columns for global unique keys ({@link UniqueProbe}). */
        public Route with(UniqueProbe found) {
            return new Route(kind, target, access, effects, several, found);
        }

        public boolean write() {
            return access == Access.WRITE;
        }

        public boolean lockingRead() {
            return access == Access.LOCKING_READ;
        }
    }

    /** A read on several shards: {@code sql} (the rewrite for merging) goes to each, and the rows merge as {@code spec} says. */
    record Merge(SqlTemplate sql, MergeSpec spec, Set<ScatterRule> rules) implements Spread {
        public Merge {
            rules = Set.copyOf(rules);
        }

        /** The shards' rows one after the other, as they come, by {@code rule}. */
        public static Merge concatenation(ScatterRule rule) {
            return new Merge(new SqlTemplate.Original(), new MergeSpec(0, List.of(), null, false, null, null),
                    Set.of(rule));
        }
    }

    /**
     * A read no streaming merge answers exactly (joins not on the key, aggregates over derived
     * tables, windows across shards, ...): the rows each of {@code tables} holds are gathered from
     * the shards that hold them into temporary tables of the same names and definitions on one
     * connection to {@code shard}, where the statement itself runs over one server's worth of rows.
     * {@code mergeRefusal} says why no merge could answer it (reported if evaluation is not
     * possible: a locking read, a session with temporary tables of its own, past the size bound).
     * {@code valuesInSelectList}: a value sits in a select list, where a prepared statement's bound
     * parameter gives the column a type and name that its text with the value written in would not
     * (the plan is shared by every text of its shape, literal or marker, so it cannot tell which).
     */
    record Evaluate(int shard, List<GatheredTable> tables, Set<ScatterRule> rules, String mergeRefusal,
                    boolean valuesInSelectList) implements Spread {
        public Evaluate {
            tables = List.copyOf(tables);
            rules = Set.copyOf(rules);
        }
    }

    /**
     * A table whose rows an {@link Evaluate} gathers. {@code schema} as the statement wrote it (null:
     * the session's); {@code shardingColumn} and {@code keyspace} for a sharded table (its rows are
     * on every shard), else null and {@code homeShard} holds them.
     */
    record GatheredTable(String schema, String table, String keyspace, String shardingColumn, int homeShard) {
        public boolean sharded() {
            return keyspace != null;
        }

        @Override
        public String toString() {
            return (schema == null ? "" : schema + ".") + table + (sharded() ? " (all shards)" : " (shard " + homeShard + ")");
        }
    }

    /**
     * A write on several shards: the statement goes to each. Affected rows add up, except for
     * {@code replicated} writes (reference tables, DDL) where every shard did the same thing and one
     * shard's count is the answer. {@code warnings}: the proxy's own warnings for the client (SHOW
     * WARNINGS shows them).
     */
    record FanOutWrite(boolean replicated, Set<ScatterRule> rules, List<String> warnings) implements Spread {
        public FanOutWrite {
            rules = Set.copyOf(rules);
            warnings = List.copyOf(warnings);
        }

        /** Each shard changes its own rows; the counts add up. */
        public static FanOutWrite sumOfShards(Set<ScatterRule> rules) {
            return new FanOutWrite(false, rules, List.of());
        }

        /** Every shard applies the write alike to its copy (reference tables, structure changes). */
        public static FanOutWrite allAlike() {
            return allAlike(List.of());
        }

        public static FanOutWrite allAlike(List<String> warnings) {
            return new FanOutWrite(true, Set.of(ScatterRule.REPLICATED_WRITE), warnings);
        }
    }

    /**
     * A multi-row INSERT/REPLACE into a sharded table: each row goes to its key's shard. The text
     * for a shard is {@code head}, its rows joined by commas, then {@code tail}. {@code schema} is
     * null when the statement names the table without one (the session's applies).
     *
     * @param missingKeyColumn when the rows leave out the sharding key (an AUTO_INCREMENT column),
     *                         its name: the proxy draws ids from a sequence, adds the column after
     *                         token {@code columnListEnd - 1} and each row's value before its
     *                         closing parenthesis
     * @param columns          the column list as written (an AUTO_INCREMENT column left out of it
     *                         gets ids from the proxy's sequence too); empty when the statement has
     *                         none: every row then gives every column in the table's order, which
     *                         the proxy learns from the shards, and takes its key from
     *                         {@link InsertRow#values()} at the key column's position
     */
    record InsertSplit(StatementKind kind, String schema, String table, Keyspace keyspace, SqlTemplate.Tokens head,
                       List<InsertRow> rows, SqlTemplate.Tokens tail, String missingKeyColumn, int columnListEnd,
                       List<String> columns, Conflicts conflicts) implements Plan {
        public InsertSplit {
            rows = List.copyOf(rows);
            columns = List.copyOf(columns);
        }

        public boolean replace() {
            return kind == StatementKind.REPLACE;
        }
    }

    /**
     * How an INSERT treats a row that collides with a stored one on a unique key: fails (plain),
     * skips it ({@code ignore}), updates the stored row ({@code onDuplicateUpdates}: the columns its
     * ON DUPLICATE KEY UPDATE assigns, empty without one) or replaces it (REPLACE, by the kind).
     */
    record Conflicts(boolean ignore, List<String> onDuplicateUpdates) {
        public static final Conflicts FAIL = new Conflicts(false, List.of());

        public Conflicts {
            onDuplicateUpdates = List.copyOf(onDuplicateUpdates);
        }

        public boolean updates() {
            return !onDuplicateUpdates.isEmpty();
        }
    }

    /**
     * One VALUES row: its tokens (parentheses included) and its key (null when the key column is
     * left out, or the statement has no column list). {@code values} holds each value that could
     * be a key (or a unique key's value), by position (null where it cannot: an expression,
     * DEFAULT, NULL); {@code nulls} the positions written as NULL.
     */
    record InsertRow(int first, int end, KeyValue key, List<KeyValue> values, java.util.Set<Integer> nulls) {
        public InsertRow {
            values = values == null ? List.of() : java.util.Collections.unmodifiableList(new ArrayList<>(values));
            nulls = java.util.Set.copyOf(nulls);
        }

        public InsertRow(int first, int end, KeyValue key) {
            this(first, end, key, List.of(), java.util.Set.of());
        }
    }

    /** A session statement (SET, USE, transaction control). */
    record Session(StatementKind kind, SessionAction action) implements Plan {
    }

    /**
     * Answered by the proxy. The result column is named {@code alias}, or when null as the client
     * wrote the expression (tokens {@code [nameFirst, nameEnd)}); for EXPLAIN CLEAVE, those tokens
     * are the statement explained.
     */
    record Local(StatementKind kind, LocalQuery query, String alias, int nameFirst, int nameEnd) implements Plan {
    }

    /** Refused with an error, never answered wrongly: the whole statement, or only when it would need several shards. */
    record Refuse(StatementKind kind, int code, String sqlState, String message) implements Plan, Spread {

        /** Error 1235 (ER_NOT_SUPPORTED_YET) with the reason. */
        public static Refuse notSupported(StatementKind kind, String message) {
            return new Refuse(kind, PlanningException.NOT_SUPPORTED, PlanningException.NOT_SUPPORTED_STATE, message);
        }
    }

    /**
     * Several statements in one text. A client that has not enabled multi-statements gets the
     * syntax error a server gives at token {@code secondStatement}; otherwise {@code plan} runs.
     */
    record MultiStatement(int secondStatement, Plan plan) implements Plan {
        @Override
        public StatementKind kind() {
            return plan.kind();
        }
    }
}
