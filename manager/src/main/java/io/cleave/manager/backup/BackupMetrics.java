package io.cleave.manager.backup;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * The backups' meters on /metrics: when the last backup succeeded, its size and duration, the phase
 * the running one is in, the history list its snapshots hold back, and backups by outcome.
 */
public final class BackupMetrics {

    static final String LAST_SUCCESS = "cleave_backup_last_success_timestamp_seconds";
    static final String SIZE = "cleave_backup_last_size_bytes";
    static final String DURATION = "cleave_backup_last_duration_seconds";
    static final String PHASE = "cleave_backup_phase";
    static final String HISTORY = "cleave_backup_history_length";
    static final String TOTAL = "cleave_backups";

    private final MeterRegistry registry;
    private final AtomicReference<double[]> last = new AtomicReference<>(new double[] {0, 0, 0});

    public BackupMetrics(MeterRegistry registry, Supplier<BackupStatus> running) {
        this.registry = registry;
        Gauge.builder(LAST_SUCCESS, last, l -> l.get()[0]).description("When the last backup completed (epoch seconds; 0: none yet)")
                .register(registry);
        Gauge.builder(SIZE, last, l -> l.get()[1]).description("Bytes the last complete backup stored").register(registry);
        Gauge.builder(DURATION, last, l -> l.get()[2]).description("How long the last complete backup took").register(registry);
        for (BackupPhase p : BackupPhase.values()) {
            Gauge.builder(PHASE, running, r -> {
                BackupStatus s = r.get();
                return s != null && s.phase() == p && !p.terminal() ? 1 : 0;
            }).tag("phase", p.name().toLowerCase()).description("1 for the phase the running backup is in").register(registry);
        }
        Gauge.builder(HISTORY, running, r -> {
            BackupStatus s = r.get();
            return s == null || s.phase().terminal() ? 0 : s.historyLength();
        }).description("The longest InnoDB history list on a shard while a backup's snapshots are open").register(registry);
    }

    void ended(BackupStatus s) {
        Counter.builder(TOTAL).tag("outcome", s.phase() == BackupPhase.DONE ? "done" : "failed")
                .description("Backups that ended, by outcome").register(registry).increment();
        if (s.phase() == BackupPhase.DONE) {
            last.set(new double[] {System.currentTimeMillis() / 1000.0, s.storedBytes(), s.durationMillis() / 1000.0});
        }
    }
}
