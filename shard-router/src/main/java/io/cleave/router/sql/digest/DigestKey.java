package io.cleave.router.sql.digest;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A digest's normalized key bytes with their 64-bit hash, usable as a hash map key.
 *
 * <p>{@link #copyOf} makes an immutable key to store in a cache. {@link StatementDigest#lookupKey()}
 * returns a reusable view over the digest's own buffer that compares equal to a stored key with
 * the same bytes, so a cache lookup that hits allocates nothing. Never store the view.
 */
public final class DigestKey {

    private byte[] bytes;
    private int length;
    private long hash;

    DigestKey(byte[] bytes, int length, long hash) {
        this.bytes = bytes;
        this.length = length;
        this.hash = hash;
    }

    void rebind(byte[] bytes, int length, long hash) {
        this.bytes = bytes;
        this.length = length;
        this.hash = hash;
    }

    /** An immutable copy, safe to keep as a cache key. */
    public static DigestKey copyOf(DigestKey key) {
        return new DigestKey(Arrays.copyOf(key.bytes, key.length), key.length, key.hash);
    }

    public long hash64() {
        return hash;
    }

    public int length() {
        return length;
    }

    /** True if the key bytes equal {@code other[from, to)}. */
    public boolean contentEquals(byte[] other, int from, int to) {
        return Arrays.equals(bytes, 0, length, other, from, to);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof DigestKey k && k.hash == hash && k.length == length
                && Arrays.equals(bytes, 0, length, k.bytes, 0, k.length);
    }

    @Override
    public int hashCode() {
        return (int) (hash ^ (hash >>> 32));
    }

    /** The key as text (the client's bytes decoded as UTF-8). */
    @Override
    public String toString() {
        return new String(bytes, 0, length, StandardCharsets.UTF_8);
    }
}
