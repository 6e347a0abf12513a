package io.cleave.manager.admin;

import com.fasterxml.jackson.databind.JsonNode;
import io.cleave.router.topology.TableRule;

/** The rule a {@code POST /v1/shard-table} body asks for: a keyspace and column, {@code reference}, or {@code unsharded}. */
final class ShardTableRequest {

    private ShardTableRequest() {
    }

    /** The rule asked for (its table name is filled in by the planner). */
    static TableRule rule(JsonNode body) {
        if (body.path("table").asText("").isBlank()) {
            throw new AdminError(AdminError.BAD_REQUEST, "name the table: {\"table\": \"db.t\", ...}");
        }
        boolean keyed = body.hasNonNull("keyspace") || body.hasNonNull("column");
        boolean reference = body.path("reference").asBoolean(false);
        boolean unsharded = body.hasNonNull("unsharded");
        if ((keyed ? 1 : 0) + (reference ? 1 : 0) + (unsharded ? 1 : 0) != 1) {
            throw new AdminError(AdminError.BAD_REQUEST, "give one rule: \"keyspace\" and \"column\", \"reference\": true,"
                    + " or \"unsharded\": SHARD");
        }
        if (keyed) {
            if (!body.hasNonNull("keyspace") || !body.hasNonNull("column")) {
                throw new AdminError(AdminError.BAD_REQUEST, "a sharded table needs both \"keyspace\" and \"column\"");
            }
            return new TableRule.Sharded("?", body.get("keyspace").asText(), body.get("column").asText());
        }
        if (reference) {
            return new TableRule.Reference("?");
        }
        if (!body.get("unsharded").canConvertToInt()) {
            throw new AdminError(AdminError.BAD_REQUEST, "\"unsharded\" takes a shard number");
        }
        return new TableRule.Unsharded("?", body.get("unsharded").asInt());
    }
}
