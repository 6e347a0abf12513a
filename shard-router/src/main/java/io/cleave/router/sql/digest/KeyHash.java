package io.cleave.router.sql.digest;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** A fast 64-bit hash of a byte range, eight bytes per step. For cache lookup, not persisted. */
final class KeyHash {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long M = 0x9E3779B97F4A7C15L;

    private KeyHash() {
    }

    static long hash(byte[] b, int from, int to) {
        long h = 0x27D4EB2F165667C5L ^ ((to - from) * M);
        int i = from;
        for (; i + 8 <= to; i += 8) {
            long w = (long) LONGS.get(b, i);
            h = Long.rotateLeft(h ^ (w * M), 29) * 0xC2B2AE3D27D4EB4FL;
        }
        long tail = 0;
        for (int shift = 0; i < to; i++, shift += 8) {
            tail |= (b[i] & 0xFFL) << shift;
        }
        h = Long.rotateLeft(h ^ (tail * M), 29) * 0xC2B2AE3D27D4EB4FL;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        return h ^ (h >>> 33);
    }
}
