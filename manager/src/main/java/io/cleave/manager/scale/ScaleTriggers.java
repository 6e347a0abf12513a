package io.cleave.manager.scale;

import io.cleave.manager.move.Catalog;
import io.cleave.manager.move.ShardLinks;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.sql.Connection;
import java.sql.SQLException;
import java.util.List;

/**
 * Why a scale may not start for triggers on the tables it writes, or null. A scale moves the keys of every
 * sharded table between shards (to the new ones, or off the ones it stops) and, going up, copies every reference
 * table to the new shards, all with ordinary statements, which fire the tables' triggers: a trigger that changes a
 * row makes the copy differ (the move's verification then never passes and the scale stalls half way), one that
 * writes elsewhere records the scale's rows as clients' changes. Checked on every shard before anything starts, so
 * the scale is refused whole rather than stopped at its spreading move.
 */
final class ScaleTriggers {

    private ScaleTriggers() {
    }

    static String refusal(ShardLinks links, Topology routing, int from, int to) throws SQLException {
        for (int shard = 0; shard < from; shard++) {
            if (!links.has(shard)) {
                continue;
            }
            try (Connection c = links.open(shard)) {
                for (TableRule rule : routing.tables().values()) {
                    boolean written = rule instanceof TableRule.Sharded || (to > from && rule instanceof TableRule.Reference);
                    if (!written) {
                        continue;
                    }
                    for (String[] found : Catalog.find(c, rule.table())) {
                        List<String> names = Catalog.triggers(c, found[0], found[1]);
                        if (!names.isEmpty()) {
                            return "table " + found[0] + "." + found[1] + " has trigger" + (names.size() > 1 ? "s " : " ")
                                    + String.join(", ", names) + " on shard " + shard + ": a scale writes the rows it "
                                    + (rule instanceof TableRule.Reference ? "copies to the new shards" : "moves between shards")
                                    + " with ordinary statements, which would fire them (changing the rows, or recording"
                                    + " the scale as clients' changes); drop the triggers, scale, and create them again after";
                        }
                    }
                }
            }
        }
        return null;
    }
}
