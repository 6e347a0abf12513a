package io.cleave.bench.chaos;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What the clients were told about every transfer they tried: acknowledged (COMMIT answered OK: it
 * must be in the data), failed (the client never sent COMMIT, or it was rolled back: it must not
 * be), or unknown (COMMIT sent and no answer, or an error answer: wholly applied or wholly not).
 */
public final class BankLedger {

    /** What a client knows of a transfer's end. */
    public enum Outcome { ACKNOWLEDGED, FAILED, UNKNOWN }

    /** One transfer and what its client was told, when. */
    public record Entry(BankTransfer transfer, Outcome outcome, long atMillis) {
    }

    private final AtomicLong ids = new AtomicLong();
    private final List<Entry> entries = new ArrayList<>();
    private final Map<Outcome, Long> counts = new EnumMap<>(Outcome.class);

    public long nextId() {
        return ids.incrementAndGet();
    }

    public synchronized void record(BankTransfer transfer, Outcome outcome, long atMillis) {
        entries.add(new Entry(transfer, outcome, atMillis));
        counts.merge(outcome, 1L, Long::sum);
    }

    public synchronized List<Entry> entries() {
        return List.copyOf(entries);
    }

    public synchronized long count(Outcome outcome) {
        return counts.getOrDefault(outcome, 0L);
    }
}
