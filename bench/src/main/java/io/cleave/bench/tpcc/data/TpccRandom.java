package io.cleave.bench.tpcc.data;

import java.math.BigDecimal;
import java.util.SplittableRandom;

/**
 * The random functions of the TPC-C specification (clause 2.1.4 to 2.1.6 and 4.3.2). One instance
 * per thread: it is not thread-safe, and a seeded instance makes a load or a run reproducible.
 */
public final class TpccRandom {
    private static final char[] ALPHANUMERIC =
        "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz".toCharArray();
    private static final String ORIGINAL = "ORIGINAL";

    private final SplittableRandom random;

    public TpccRandom(long seed) {
        this.random = new SplittableRandom(seed);
    }

    /** Uniform in [min, max], both inclusive. */
    public int uniform(int min, int max) {
        return random.nextInt(min, max + 1);
    }

    /** Non-uniform random NURand(A, x, y) with run-time constant C (clause 2.1.6). */
    public int nuRand(int a, int x, int y, int c) {
        return (((uniform(0, a) | uniform(x, y)) + c) % (y - x + 1)) + x;
    }

    /** A random a-string: alphanumeric characters, length uniform in [minLength, maxLength]. */
    public String alphaString(int minLength, int maxLength) {
        return chars(uniform(minLength, maxLength), ALPHANUMERIC, 0, ALPHANUMERIC.length);
    }

    /** A random n-string: digits only, length uniform in [minLength, maxLength]. */
    public String numericString(int minLength, int maxLength) {
        return chars(uniform(minLength, maxLength), ALPHANUMERIC, 0, 10);
    }

    /** I_DATA / S_DATA: an a-string of which 10% carry "ORIGINAL" at a random position. */
    public String data(int minLength, int maxLength) {
        String data = alphaString(minLength, maxLength);
        if (uniform(1, 10) != 1) {
            return data;
        }
        int at = uniform(0, data.length() - ORIGINAL.length());
        return data.substring(0, at) + ORIGINAL + data.substring(at + ORIGINAL.length());
    }

    /** Zip code: four random digits followed by "11111" (clause 4.3.2.7). */
    public String zip() {
        return numericString(4, 4) + "11111";
    }

    public String state() {
        return chars(2, ALPHANUMERIC, 10, 36);
    }

    /** A decimal with the given scale, uniform between the two unscaled bounds (e.g. cents). */
    public BigDecimal decimal(int minUnscaled, int maxUnscaled, int scale) {
        return BigDecimal.valueOf(uniform(minUnscaled, maxUnscaled), scale);
    }

    /** A random permutation of 1..n (O_C_ID at load time, clause 4.3.3.1). */
    public int[] permutation(int n) {
        int[] values = new int[n];
        for (int i = 0; i < n; i++) {
            values[i] = i + 1;
        }
        for (int i = n - 1; i > 0; i--) {
            int j = random.nextInt(i + 1);
            int swap = values[i];
            values[i] = values[j];
            values[j] = swap;
        }
        return values;
    }

    /** A warehouse other than home, uniform over the rest; only meaningful when there are others. */
    public int otherWarehouse(int home, int warehouses) {
        if (warehouses < 2) {
            throw new IllegalArgumentException("no other warehouse among " + warehouses);
        }
        int other = uniform(1, warehouses - 1);
        return other >= home ? other + 1 : other;
    }

    public long nextLong() {
        return random.nextLong();
    }

    private String chars(int length, char[] alphabet, int from, int to) {
        char[] out = new char[length];
        for (int i = 0; i < length; i++) {
            out[i] = alphabet[random.nextInt(from, to)];
        }
        return new String(out);
    }
}
