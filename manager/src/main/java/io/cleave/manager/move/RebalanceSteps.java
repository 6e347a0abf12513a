package io.cleave.manager.move;

import io.cleave.router.shardmap.KeySet;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The planning half of the rebalancer, for one keyspace: from the measured units (key ranges or bucket runs, each on
 * a shard with its load), again and again the fullest shard that still has keys to give hands the emptiest shard
 * half the difference, as a whole unit or a part split off its upper end (keys assumed evenly spread within a range,
 * rows evenly spread over a shard's buckets). It stops when the shards are within a tenth of the average, or when
 * no move would narrow the gap. A unit moves at most once per plan, so no plan moves the same keys twice; a shard
 * that only received keys in this plan gives none, and the next fullest one gives instead.
 */
final class RebalanceSteps {

    static final int MAX_STEPS = 16;

    /** The upper bound of an open-ended key range (the largest key stored): the only look at the shards planning needs. */
    @FunctionalInterface
    interface Bounds {
        KeySet bounded(Unit unit) throws SQLException;
    }

    /** A unit of keys on one shard with its load; {@code moved} once a step of this plan took it. */
    static final class Unit {
        KeySet keys;
        int shard;
        long load;
        boolean moved;

        Unit(KeySet keys, int shard, long load) {
            this.keys = keys;
            this.shard = shard;
            this.load = load;
        }
    }

    private final String keyspace;
    private final List<Unit> units;
    private final int shards;
    private final String unit;
    private final Bounds bounds;

    /**
     * @param units  the keyspace's units, changed as the plan moves them (each step's loads follow from them)
     * @param byBytes whether loads are bytes (else rows), for the steps' reasons
     */
    RebalanceSteps(String keyspace, List<Unit> units, int shards, boolean byBytes, Bounds bounds) {
        this.keyspace = keyspace;
        this.units = units;
        this.shards = shards;
        this.unit = byBytes ? " bytes" : " rows";
        this.bounds = bounds;
    }

    /** The steps, in order; {@link #loads()} is the shards' loads after them. */
    List<RebalancePlan.Step> plan() throws SQLException {
        List<RebalancePlan.Step> steps = new ArrayList<>();
        for (int i = 0; i < MAX_STEPS; i++) {
            RebalancePlan.Step step = step(loads());
            if (step == null) {
                break;
            }
            steps.add(step);
        }
        return steps;
    }

    /** Each shard's load as the units now place them. */
    long[] loads() {
        long[] loads = new long[shards];
        for (Unit u : units) {
            loads[u.shard] += u.load;
        }
        return loads;
    }

    private RebalancePlan.Step step(long[] loads) throws SQLException {
        int empty = 0;
        long total = 0;
        for (int s = 0; s < loads.length; s++) {
            empty = loads[s] < loads[empty] ? s : empty;
            total += loads[s];
        }
        long threshold = Math.max(1, total / loads.length / 10);
        int full = -1;
        Unit best = null;
        for (int s = 0; s < loads.length; s++) {
            if (loads[s] - loads[empty] <= threshold || (full >= 0 && loads[s] <= loads[full])) {
                continue;
            }
            Unit biggest = biggestUnmoved(s);
            if (biggest != null) {
                full = s;
                best = biggest;
            }
        }
        if (best == null) {
            return null;
        }
        long gap = loads[full] - loads[empty];
        long want = gap / 2;
        Unit moving = best;
        if (best.load > want) {
            KeySet part = part(best, want);
            if (part != null && !part.equals(best.keys)) {
                long partLoad = Math.max(1, (long) ((double) best.load * width(part) / width(bounds.bounded(best))));
                moving = new Unit(part, full, partLoad);
                best.keys = rest(best.keys, part);
                best.load -= partLoad;
                units.add(moving);
            }
        }
        if (moving.load >= gap) {
            // Moving it would only turn the imbalance around.
            return null;
        }
        moving.shard = empty;
        moving.moved = true;
        return new RebalancePlan.Step(keyspace, moving.keys.toString(), full, empty, moving.load, "shard " + full
                + " holds " + loads[full] + unit + " of " + keyspace + ", shard " + empty + " " + loads[empty] + ": about "
                + moving.load + " move");
    }

    /** The largest unit on {@code shard} this plan has not moved yet and that holds anything, or null. */
    private Unit biggestUnmoved(int shard) {
        Unit best = null;
        for (Unit u : units) {
            if (u.shard == shard && !u.moved && u.load > 0 && (best == null || u.load > best.load)) {
                best = u;
            }
        }
        return best;
    }

    /** The upper part of a unit worth about {@code want}. */
    private KeySet part(Unit u, long want) throws SQLException {
        KeySet keys = bounds.bounded(u);
        long width = width(keys);
        long n = Math.max(1, Math.round((double) width * want / u.load));
        if (n >= width) {
            return u.keys;
        }
        if (keys instanceof KeySet.Buckets b) {
            return new KeySet.Buckets((int) (b.to() - n + 1), b.to());
        }
        KeySet.Keys k = (KeySet.Keys) keys;
        return new KeySet.Keys(k.to() - n + 1, ((KeySet.Keys) u.keys).to());
    }

    /** What is left of {@code whole} when its upper part {@code part} goes. */
    private static KeySet rest(KeySet whole, KeySet part) {
        if (whole instanceof KeySet.Buckets b) {
            return new KeySet.Buckets(b.from(), ((KeySet.Buckets) part).from() - 1);
        }
        return new KeySet.Keys(((KeySet.Keys) whole).from(), ((KeySet.Keys) part).from() - 1);
    }

    private static long width(KeySet keys) {
        if (keys instanceof KeySet.Buckets b) {
            return b.to() - b.from() + 1;
        }
        KeySet.Keys k = (KeySet.Keys) keys;
        return k.to() == Long.MAX_VALUE ? Long.MAX_VALUE : k.to() - k.from() + 1;
    }
}
