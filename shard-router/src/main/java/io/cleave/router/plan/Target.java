package io.cleave.router.plan;

import java.util.List;

/** Which shards a statement goes to, before the values of this execution are known. */
public sealed interface Target permits Target.Shard, Target.Keyed, Target.AllShards, Target.AnyShard, Target.DefaultShard,
        Target.Routine {

    /** A fixed shard (an unsharded table's home, temporary tables, session-bound statements). */
    record Shard(int shard) implements Target {
        @Override
        public String toString() {
            return "shard " + shard;
        }
    }

    /**
     * Decided by sharding keys. Every class must land on the same single shard for the statement
     * to stay on one shard; {@code homeShards} are unsharded tables' homes that must be that shard
     * too. One class may also spread over several shards (then the plan's multi-shard policy applies).
     * {@code notColocatedMessage} is the error when they do not meet on one shard.
     */
    record Keyed(List<KeyClass> classes, List<Integer> homeShards, String notColocatedMessage) implements Target {
        public Keyed {
            classes = List.copyOf(classes);
            homeShards = List.copyOf(homeShards);
        }

        @Override
        public String toString() {
            return "keyed " + classes + (homeShards.isEmpty() ? "" : " home " + homeShards);
        }
    }

    /** Every shard (DDL, keyless writes, reference-table writes). */
    record AllShards() implements Target {
        @Override
        public String toString() {
            return "all shards";
        }
    }

    /**
     * Any one shard gives the same answer (reference tables, no tables, metadata): the shard the
     * session already uses, else the default shard.
     */
    record AnyShard() implements Target {
        @Override
        public String toString() {
            return "any shard";
        }
    }

    /**
     * The default shard answers a read of no table whose answer may differ by shard (the catalog,
     * system variables, sequences, stored functions: {@code CatalogReads}), as the one server of a
     * home without rules would. Like {@link AnyShard}, it does not make a transaction reach the
     * default shard just for the read. {@code autoIncrementStep}: it reads the AUTO_INCREMENT step or
     * offset, which the session sees as one server's session would (by one, unless it set its own).
     */
    record DefaultShard(boolean autoIncrementStep) implements Target {
        @Override
        public String toString() {
            return "default shard";
        }
    }

    /**
     * A CALL: where it runs depends on the procedure's body and declared key, which the proxy reads
     * from the shards' catalog ({@link io.cleave.router.routine.Routines}). {@code schema} as the
     * statement names it (null: the session's); per argument its slot (a literal or parameter
     * marker, from which a key is read), or -1. {@code alongside}: in a text of several statements,
     * the shard the others run on, -1 when any would do; null for a CALL alone.
     */
    record Routine(String schema, String procedure, List<Integer> argumentSlots, Integer alongside) implements Target {
        public Routine {
            argumentSlots = List.copyOf(argumentSlots);
        }

        @Override
        public String toString() {
            return "routine " + (schema == null ? "" : schema + ".") + procedure
                    + (alongside == null ? "" : " with other statements");
        }
    }
}
