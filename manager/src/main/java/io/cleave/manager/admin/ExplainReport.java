package io.cleave.manager.admin;

/**
 * What {@code POST /v1/explain} answers: the statement, its plan as the router prints it, and the
 * shards it reaches with its own values under the daemon's current shard map.
 */
public record ExplainReport(String statement, String plan, String shards) {
}
