package io.cleave.router.plan;

/**
 * Why a statement that runs on several shards gets exactly one server's answer. A plan is
 * answered across shards only with the rules that make it exact ({@link Plan.Spread}); the choke
 * point ({@link PlanGate}) refuses any multi-shard plan without them. Each rule states the fact
 * its merge relies on.
 */
public enum ScatterRule {
    /** The row source of the statement. */
    PARTITIONED_ROWS("every row of the answer contains a row of a sharded table that is not on the nullable side of an"
            + " outer join, and that row lives on exactly one shard: the shards' rows together are the answer's rows,"
            + " each once"),
    JOIN_ON_KEY("tables joined on equal sharding keys of one keyspace have all their matching rows on the same shard"),
    REFERENCE_COPY("a reference table has the same full copy on every shard, so a sharded row finds the same matches"
            + " there as on one server"),
    CORRELATED_BY_KEY("a subquery tied to the outer row by the sharding key (k = outer.k, or outer.k IN (SELECT k ...))"
            + " reads only rows on the outer row's shard, whatever it computes over them"),
    REPLICATED_SUBQUERY("a subquery over reference tables only reads the same full copy on every shard"),
    DERIVED_PARTITIONED("a derived table or CTE over one partitioned row source, without LIMIT or groups across its"
            + " rows, keeps each of its rows on the shard of its source row"),
    GROUPED_BY_KEY("groups whose GROUP BY includes the sharding key never span shards"),
    DISTINCT_WITH_KEY("rows that include the sharding key are never equal across shards, so DISTINCT on each shard is"
            + " DISTINCT overall"),
    WINDOW_PARTITIONED_BY_KEY("a window partitioned by the sharding key holds the rows of one shard only"),
    UNION_ALL_CONCATENATION("UNION ALL keeps every row of its branches: the shards' answers are concatenated"),
    MERGE_ORDER("each shard sorts its rows and the proxy merges them by the same keys, strings by their collation's"
            + " weight (WEIGHT_STRING), so ties and order are one server's"),
    LIMIT_AFTER_MERGE("the first offset+count rows of the merged order are among the first offset+count rows of the"
            + " shards; without an order, any offset+count rows are a right answer"),
    REAGGREGATE("partial groups are matched by their keys' weights; COUNTs and SUMs add up, MIN and MAX are the"
            + " extremes of the partial ones, AVG is the summed SUM over the summed COUNT at the session's"
            + " div_precision_increment"),
    HAVING_AFTER_MERGE("HAVING conditions on aggregates are evaluated on the merged groups, the others on every shard"
            + " (they only read group keys)"),
    DISTINCT_AFTER_MERGE("duplicates across shards are removed by grouping the merged rows on every column's weight"),
    SELECT_LIMIT_AFTER_MERGE("sql_select_limit is applied to the merged rows; the shards get no limit where groups or"
            + " duplicates must be merged first"),
    EVALUATED_ON_ONE_SHARD("the rows of every sharded table the read names (and of unsharded tables homed elsewhere) are"
            + " gathered from the shards into temporary tables of the same names and definitions on one shard's"
            + " connection, where the statement itself runs: one server answers it over all the rows, with its own"
            + " collations, types and semantics"),
    FAN_OUT_WRITE("an UPDATE or DELETE without ORDER BY or LIMIT changes each row by itself on the row's shard, in one"
            + " atomic transaction over the shards"),
    REPLICATED_WRITE("a write to a reference table, or a structure change, does the same on every shard's copy"),
    CONCATENATED_REPORTS("table maintenance reports one row per table and shard: their concatenation lists every shard");

    private final String reason;

    ScatterRule(String reason) {
        this.reason = reason;
    }

    public String reason() {
        return reason;
    }
}
