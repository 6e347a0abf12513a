package io.cleave.router.plan;

import io.cleave.router.keyspace.KeyOutOfRangeException;
import io.cleave.router.keyspace.Keyspace;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.shardmap.ShardMap;
import io.cleave.router.topology.Topology;

import java.util.Arrays;
import java.util.List;

/** Turns a plan's target into shards, with one execution's values and the current shard map. */
public final class TargetResolver {

    private final Topology topology;

    public TargetResolver(Topology topology) {
        this.topology = topology;
    }

    public Resolution resolve(Target target, ParameterValues values, ShardMap map) {
        if (target instanceof Target.Shard s) {
            return Resolution.single(s.shard());
        }
        if (target instanceof Target.AnyShard) {
            return Resolution.anyShard();
        }
        if (target instanceof Target.DefaultShard) {
            return Resolution.single(topology.defaultShard());
        }
        if (target instanceof Target.AllShards) {
            return Resolution.of(all(map.shardCount()));
        }
        if (target instanceof Target.Routine r) {
            return Resolution.error("a CALL of " + r.procedure() + " runs where its procedure's body and declared key put"
                    + " it, which the proxy reads from the shards' catalog");
        }
        return keyed((Target.Keyed) target, values, map);
    }

    /** The shard a key value of the keyspace named {@code keyspaceName} lives on, or -1 when no bucket covers it. */
    public int shardOf(String keyspaceName, ShardKey key, ShardMap map) {
        return shardOf(topology.keyspace(keyspaceName), key, map);
    }

    /** The shard a key value lives on, or -1 when no bucket covers it. */
    public int shardOf(Keyspace keyspace, ShardKey key, ShardMap map) {
        try {
            return map.shardOf(keyspace.name(), key, keyspace.function());
        } catch (KeyOutOfRangeException e) {
            return -1;
        }
    }

    /** The shard of one key value from a slot, or -1 when it cannot be narrowed (NULL, inexact, out of range). */
    public int shardOf(Keyspace keyspace, KeyValue value, ParameterValues values, ShardMap map) {
        ShardKey key = keyOf(keyspace, value, values);
        return key == null ? -1 : shardOf(keyspace, key, map);
    }

    private Resolution keyed(Target.Keyed target, ParameterValues values, ShardMap map) {
        int shardCount = map.shardCount();
        int agreed = -1;
        boolean allSingle = true;
        int[] spread = null;
        for (KeyClass c : target.classes()) {
            int[] shards = shardsOf(c, values, map, shardCount);
            if (shards.length == 0) {
                return Resolution.error("keyspace " + c.keyspace() + " has no shard");
            }
            if (shards.length == 1) {
                if (agreed == -1) {
                    agreed = shards[0];
                } else if (agreed != shards[0]) {
                    return Resolution.error(target.notColocatedMessage());
                }
            } else {
                allSingle = false;
                spread = shards;
            }
        }
        for (int home : target.homeShards()) {
            if (agreed == -1) {
                agreed = home;
            } else if (agreed != home) {
                return Resolution.error(target.notColocatedMessage());
            }
        }
        if (allSingle) {
            return agreed >= 0 ? Resolution.single(agreed) : Resolution.anyShard();
        }
        if (target.classes().size() == 1 && target.homeShards().isEmpty()) {
            return Resolution.of(spread);
        }
        return Resolution.error(target.notColocatedMessage());
    }

    /**
     * The shards a class's rows can be on: those of any of its alternatives (the arms of a UNION
     * ALL), each allowing the shards every one of its restrictions allows. A restriction whose value
     * cannot be placed (NULL, inexact) allows every shard holding some bucket of the keyspace
     * (another shard may hold rows of it only as a move's ghosts). When no shard is left, the
     * restrictions contradict each other and no row qualifies anywhere: every shard answers alike,
     * and all of them are asked (the class is co-located, so the merge is still exact).
     */
    private int[] shardsOf(KeyClass c, ParameterValues values, ShardMap map, int shardCount) {
        if (!c.restricted()) {
            return map.owners(c.keyspace().name());
        }
        List<List<List<KeyValue>>> alternatives = c.alternatives();
        if (alternatives.size() == 1 && alternatives.get(0).size() == 1 && alternatives.get(0).get(0).size() == 1) {
            int shard = shardOf(c.keyspace(), alternatives.get(0).get(0).get(0), values, map);
            return shard >= 0 ? new int[] {shard} : map.owners(c.keyspace().name());
        }
        boolean[] reached = new boolean[shardCount];
        for (List<List<KeyValue>> alternative : alternatives) {
            boolean[] allowed = allowedBy(c.keyspace(), alternative, values, map, shardCount);
            if (allowed == null) {
                return map.owners(c.keyspace().name());
            }
            for (int s = 0; s < shardCount; s++) {
                reached[s] |= allowed[s];
            }
        }
        int n = 0;
        for (boolean r : reached) {
            n += r ? 1 : 0;
        }
        if (n == 0) {
            return map.owners(c.keyspace().name());
        }
        int[] out = new int[n];
        int i = 0;
        for (int s = 0; s < shardCount; s++) {
            if (reached[s]) {
                out[i++] = s;
            }
        }
        return out;
    }

    /**
     * The shards every restriction of one alternative allows (none when they contradict each
     * other), or null when none of them can be placed: then its rows may be on any shard.
     */
    private boolean[] allowedBy(Keyspace keyspace, List<List<KeyValue>> alternative, ParameterValues values,
                                ShardMap map, int shardCount) {
        boolean[] allowed = null;
        for (List<KeyValue> restriction : alternative) {
            boolean[] hit = shardsOf(keyspace, restriction, values, map, shardCount);
            if (hit == null) {
                continue;
            }
            if (allowed == null) {
                allowed = hit;
            } else {
                for (int s = 0; s < shardCount; s++) {
                    allowed[s] &= hit[s];
                }
            }
        }
        return allowed;
    }

    /** The shards one restriction's values reach, or null when one of them cannot be placed. */
    private boolean[] shardsOf(Keyspace keyspace, List<KeyValue> restriction, ParameterValues values, ShardMap map,
                               int shardCount) {
        boolean[] hit = new boolean[shardCount];
        for (KeyValue v : restriction) {
            int shard = shardOf(keyspace, v, values, map);
            if (shard < 0) {
                return null;
            }
            hit[shard] = true;
        }
        return hit;
    }

    /** The key of one slot or constant with this execution's values, or null when it cannot be narrowed. */
    public ShardKey keyOf(Keyspace keyspace, KeyValue value, ParameterValues values) {
        if (value instanceof KeyValue.ConstantKey c) {
            return c.key();
        }
        KeyValue.SlotValue slot = (KeyValue.SlotValue) value;
        ShardKey key = values.key(slot.slot(), keyspace.function().keyType());
        if (key == null || !slot.negated()) {
            return key;
        }
        return key instanceof ShardKey.IntKey i && i.value() != Long.MIN_VALUE ? ShardKey.of(-i.value()) : null;
    }

    private static int[] all(int shardCount) {
        int[] out = new int[shardCount];
        Arrays.setAll(out, i -> i);
        return out;
    }
}
