package io.cleave.manager.standby;

import java.util.Map;
import java.util.TreeMap;

/** A MariaDB GTID position ({@code 0-1000-338,1-1000-5}): per replication domain, the last sequence number. */
record GtidPosition(Map<Long, Long> sequences) {

    static GtidPosition parse(String text) {
        Map<Long, Long> out = new TreeMap<>();
        if (text != null && !text.isBlank()) {
            for (String gtid : text.split(",")) {
                String[] parts = gtid.trim().split("-");
                if (parts.length != 3) {
                    throw new IllegalArgumentException("'" + text + "' is not a GTID position");
                }
                out.merge(Long.parseLong(parts[0]), Long.parseLong(parts[2]), Math::max);
            }
        }
        return new GtidPosition(out);
    }

    /** Whether every domain of {@code other} is at or before this position's. */
    boolean reached(GtidPosition other) {
        for (Map.Entry<Long, Long> e : other.sequences.entrySet()) {
            if (sequences.getOrDefault(e.getKey(), 0L) < e.getValue()) {
                return false;
            }
        }
        return true;
    }
}
