package io.cleave.router.routine;

import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.topology.RoutineRule;
import io.cleave.router.topology.TableRule;
import io.cleave.router.topology.Topology;

import java.util.Collection;

/**
 * Where a CALL runs: a stored procedure runs on one shard and sees that shard's rows only, so it
 * runs where every row it can name lives.
 * <ul>
 * <li>A procedure declared with a key ({@link RoutineRule}) runs on the shard of its key
 *     argument: it may name tables of that keyspace and read reference tables.</li>
 * <li>Any other runs on the default shard when what it (and every routine it calls) names lives
 *     there alone: tables no rule names (unsharded on the default shard) and reference tables it
 *     only reads.</li>
 * <li>Else it is refused, naming the routine and the table.</li>
 * </ul>
 */
public sealed interface RoutinePlacement {

    /** Runs on {@code shard}. */
    record OnShard(int shard) implements RoutinePlacement {
    }

    /** Runs on the shard of argument {@code argument} (from 0) in {@code keyspace}. */
    record ByKey(Keyspace keyspace, int argument) implements RoutinePlacement {
    }

    /** Refused with 1235 and {@code message}. */
    record Refused(String message) implements RoutinePlacement {
    }

    /**
     * Decides for a CALL of {@code routine}.
     *
     * @param rule        its declared key, or null
     * @param keyArgument the position (from 0) of the rule's parameter among the routine's, or -1 when
     *                    it has none of that name
     * @param closure     the profiles of the routine and of every routine it calls, directly or not
     */
    static RoutinePlacement decide(String routine, RoutineRule rule, int keyArgument,
                                   Collection<RoutineProfile> closure, Topology topology) {
        boolean writes = closure.stream().anyMatch(RoutineProfile::writes);
        if (rule != null && keyArgument < 0) {
            return new Refused("CALL " + routine + ": sharding.routines declares its key to be parameter '"
                    + rule.parameter() + "', which the procedure does not have");
        }
        for (RoutineProfile profile : closure) {
            if (!profile.readable()) {
                return new Refused("CALL " + routine + ": the shard account may not read the body of the procedure or"
                        + " of a routine it calls, so the proxy cannot tell where it can run");
            }
            for (String name : profile.names()) {
                TableRule table = topology.tables().get(name);
                String why = table == null ? null : reason(table, rule, writes, topology);
                if (why != null) {
                    return new Refused("CALL " + routine + ": the procedure " + why + "; it runs on one shard, which"
                            + " would show it that shard's rows only: not supported across shards"
                            + (rule == null && table instanceof TableRule.Sharded
                            ? " (declare the parameter that holds its key in sharding.routines to run it on the"
                            + " key's shard)" : ""));
                }
            }
        }
        return rule != null ? new ByKey(topology.keyspace(rule.keyspace()), keyArgument)
                : new OnShard(topology.defaultShard());
    }

    /** Why naming {@code table} keeps the routine from running where {@code rule} (or the default shard) puts it. */
    private static String reason(TableRule table, RoutineRule rule, boolean writes, Topology topology) {
        if (table instanceof TableRule.Sharded s) {
            if (rule != null && rule.keyspace().equals(s.keyspace())) {
                return null;
            }
            return "names " + s.table() + ", sharded by " + s.column()
                    + (rule != null ? " in keyspace " + s.keyspace() + ", not its key's keyspace " + rule.keyspace() : "");
        }
        if (table instanceof TableRule.Reference ref) {
            return writes ? "names the reference table " + ref.table() + " and writes, which would change one shard's"
                    + " copy of it" : null;
        }
        TableRule.Unsharded u = (TableRule.Unsharded) table;
        if (rule != null) {
            return "names the unsharded table " + u.table() + " (on shard " + u.homeShard() + "), while it runs on its"
                    + " key's shard";
        }
        return u.homeShard() == topology.defaultShard() ? null
                : "names " + u.table() + ", unsharded on shard " + u.homeShard() + ", not on the default shard "
                + topology.defaultShard();
    }
}
