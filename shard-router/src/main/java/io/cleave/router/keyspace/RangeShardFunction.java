package io.cleave.router.keyspace;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Explicit integer key ranges, one bucket per range (e.g. warehouses 1-25, 26-50, ...). Bucket ids
 * follow the order the ranges were given in, so a config can name them by position.
 */
public final class RangeShardFunction implements ShardFunction {

    public static final String KIND = "range";

    private final List<KeyRange> ranges;
    private final long[] sortedFrom;
    private final long[] sortedTo;
    private final int[] sortedBucket;

    public RangeShardFunction(List<KeyRange> ranges) {
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("a range function needs at least one range");
        }
        this.ranges = List.copyOf(ranges);
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < ranges.size(); i++) {
            order.add(i);
        }
        order.sort(Comparator.comparingLong(i -> ranges.get(i).from()));
        sortedFrom = new long[order.size()];
        sortedTo = new long[order.size()];
        sortedBucket = new int[order.size()];
        for (int i = 0; i < order.size(); i++) {
            KeyRange r = ranges.get(order.get(i));
            if (i > 0 && r.from() <= sortedTo[i - 1]) {
                throw new IllegalArgumentException(
                        "ranges " + ranges.get(sortedBucket[i - 1]) + " and " + r + " overlap");
            }
            sortedFrom[i] = r.from();
            sortedTo[i] = r.to();
            sortedBucket[i] = order.get(i);
        }
    }

    public List<KeyRange> ranges() {
        return ranges;
    }

    @Override
    public String kind() {
        return KIND;
    }

    @Override
    public KeyType keyType() {
        return KeyType.INTEGER;
    }

    @Override
    public int bucketCount() {
        return ranges.size();
    }

    @Override
    public int bucketOf(ShardKey key) {
        if (!(key instanceof ShardKey.IntKey intKey)) {
            throw new KeyOutOfRangeException("range keyspaces take integer keys, not " + key);
        }
        long k = intKey.value();
        int lo = 0;
        int hi = sortedFrom.length - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (k < sortedFrom[mid]) {
                hi = mid - 1;
            } else if (k > sortedTo[mid]) {
                lo = mid + 1;
            } else {
                return sortedBucket[mid];
            }
        }
        throw new KeyOutOfRangeException("key " + k + " is outside every configured range " + ranges);
    }

    @Override
    public String describeBucket(int bucket) {
        return "range " + ranges.get(bucket);
    }
}
