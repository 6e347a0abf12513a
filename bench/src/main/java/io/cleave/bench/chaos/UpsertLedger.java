package io.cleave.bench.chaos;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Per upserted key (each written by one client only): the last value its writer was told is
 * stored, and the values written after it whose statement got no answer. The stored value must be
 * the acknowledged one or one of those; a key never written must still hold its opening 0.
 */
public final class UpsertLedger {

    /** What a key may hold: {@code acknowledged} (0 at the start) or one of {@code unknown}. */
    public record Expected(long acknowledged, List<Long> unknown, long acknowledgedAtMillis) {
        public boolean allows(long value) {
            return value == acknowledged || unknown.contains(value);
        }
    }

    private final Map<String, Expected> byKey = new HashMap<>();
    private long acknowledgedCount;
    private long unknownCount;

    private static String key(String table, long k) {
        return table + "/" + k;
    }

    public synchronized void acknowledged(String table, long k, long value, long atMillis) {
        byKey.put(key(table, k), new Expected(value, List.of(), atMillis));
        acknowledgedCount++;
    }

    public synchronized void unknown(String table, long k, long value) {
        Expected e = expected(table, k);
        List<Long> unknown = new ArrayList<>(e.unknown());
        unknown.add(value);
        byKey.put(key(table, k), new Expected(e.acknowledged(), List.copyOf(unknown), e.acknowledgedAtMillis()));
        unknownCount++;
    }

    public synchronized Expected expected(String table, long k) {
        return byKey.getOrDefault(key(table, k), new Expected(0, List.of(), 0));
    }

    public synchronized long acknowledgedCount() {
        return acknowledgedCount;
    }

    public synchronized long unknownCount() {
        return unknownCount;
    }
}
