package io.cleave.router.plan;

import java.util.List;
import java.util.Set;

/**
 * What a routed statement does when its target turns out to be more than one shard. Merges and
 * fan-out writes carry the {@link ScatterRule}s that make them exact; {@link PlanGate} refuses
 * any that carries none.
 */
public sealed interface MultiShard permits MultiShard.Merge, MultiShard.WriteAll, MultiShard.Refused {

    /** Read: send {@code sql} (the rewrite for merging) to each shard and merge as {@code spec} says. */
    record Merge(SqlTemplate sql, MergeSpec spec, Set<ScatterRule> rules) implements MultiShard {
        public Merge {
            rules = Set.copyOf(rules);
        }
    }

    /**
     * Write: send the statement to each shard. Affected rows add up, except for {@code replicated}
     * writes (reference tables, DDL) where every shard did the same thing and one shard's count is
     * the answer. {@code warnings}: the proxy's own warnings for the client (SHOW WARNINGS shows them).
     */
    record WriteAll(boolean replicated, Set<ScatterRule> rules, List<String> warnings) implements MultiShard {
        public WriteAll {
            rules = Set.copyOf(rules);
            warnings = List.copyOf(warnings);
        }

        public WriteAll(boolean replicated, Set<ScatterRule> rules) {
            this(replicated, rules, List.of());
        }

        /** A write every shard applies alike (reference tables, structure changes). */
        static WriteAll alike() {
            return new WriteAll(true, Set.of(ScatterRule.REPLICATED_WRITE));
        }
    }

    /** Cannot be answered correctly across shards: refuse with this error. */
    record Refused(int code, String sqlState, String message) implements MultiShard {
    }
}
