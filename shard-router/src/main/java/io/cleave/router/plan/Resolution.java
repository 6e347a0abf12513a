package io.cleave.router.plan;

import java.util.Arrays;

/**
 * The shards one execution of a routed statement goes to, or why it cannot go anywhere. A single
 * shard is the common case and allocates nothing: its resolutions are shared (so the array
 * {@link #shards()} returns must not be changed).
 */
public final class Resolution {

    private static final int[] NONE = new int[0];
    private static final Resolution[] SINGLE = new Resolution[256];

    static {
        for (int i = 0; i < SINGLE.length; i++) {
            SINGLE[i] = new Resolution(new int[] {i}, false, null);
        }
    }

    private final int[] shards;
    private final boolean any;
    private final String error;

    private Resolution(int[] shards, boolean any, String error) {
        this.shards = shards;
        this.any = any;
        this.error = error;
    }

    public static Resolution single(int shard) {
        return shard >= 0 && shard < SINGLE.length ? SINGLE[shard] : new Resolution(new int[] {shard}, false, null);
    }

    public static Resolution of(int[] shards) {
        return new Resolution(shards, false, null);
    }

    /** Any one shard will do; the caller picks (the session's current shard, else the default). */
    public static Resolution anyShard() {
        return new Resolution(NONE, true, null);
    }

    public static Resolution error(String message) {
        return new Resolution(NONE, false, message);
    }

    public boolean isError() {
        return error != null;
    }

    public String error() {
        return error;
    }

    public boolean isAny() {
        return any;
    }

    public boolean isSingle() {
        return shards.length == 1;
    }

    public int shard() {
        return shards[0];
    }

    /** The shards, in ascending order; shared, not to be changed. */
    public int[] shards() {
        return shards;
    }

    @Override
    public String toString() {
        return error != null ? "error: " + error : any ? "any shard" : "shards " + Arrays.toString(shards);
    }
}
