package io.cleave.manager.move;

import io.cleave.router.topology.TableRule;

/**
 * A table rule as journaled with a move (the rule its table gets at the cutover): {@code sharded}
 * with a keyspace and column, {@code reference}, or {@code unsharded} with a home shard.
 */
public final class RuleSpec {
    public String rule;
    public String keyspace;
    public String column;
    public int shard;

    public RuleSpec() {
    }

    public static RuleSpec of(TableRule r) {
        RuleSpec s = new RuleSpec();
        if (r instanceof TableRule.Sharded sh) {
            s.rule = "sharded";
            s.keyspace = sh.keyspace();
            s.column = sh.column();
        } else if (r instanceof TableRule.Reference) {
            s.rule = "reference";
        } else {
            s.rule = "unsharded";
            s.shard = ((TableRule.Unsharded) r).homeShard();
        }
        return s;
    }

    public TableRule toRule(String table) {
        return switch (rule) {
            case "sharded" -> new TableRule.Sharded(table, keyspace, column);
            case "reference" -> new TableRule.Reference(table);
            case "unsharded" -> new TableRule.Unsharded(table, shard);
            default -> throw new IllegalStateException("unknown rule " + rule);
        };
    }

    @Override
    public String toString() {
        return switch (rule) {
            case "sharded" -> "sharded on " + keyspace + " by " + column;
            case "reference" -> "reference (on every shard)";
            default -> "unsharded on shard " + shard;
        };
    }
}
