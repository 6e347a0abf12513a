package io.cleave.manager.move;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

import java.time.Duration;
import java.util.EnumMap;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Supplier;

/**
 * Moves on /metrics: how many are in each phase, rows copied, catch-up lag (events and seconds),
 * the clients' pause at each cutover (histogram) and moves ended by outcome.
 */
public final class MoveMetrics {

    public static final String PHASE = "cleave_move_phase";
    public static final String ROWS_COPIED = "cleave_move_rows_copied";
    public static final String LAG_EVENTS = "cleave_move_catchup_lag_events";
    public static final String LAG_SECONDS = "cleave_move_catchup_lag_seconds";
    public static final String PAUSE = "cleave_move_cutover_pause_seconds";
    public static final String MOVES = "cleave_moves";

    private final MeterRegistry registry;
    private final Counter rowsCopied;
    private final Timer pause;
    private final Map<String, Counter> outcomes = new ConcurrentHashMap<>();
    private final AtomicReference<double[]> lag = new AtomicReference<>(new double[2]);

    public MoveMetrics(MeterRegistry registry, Supplier<Map<MovePhase, Integer>> phases) {
        this.registry = registry;
        this.rowsCopied = Counter.builder(ROWS_COPIED).description("Rows moves copied to their targets")
                .register(registry);
        this.pause = Timer.builder(PAUSE).description("How long clients' statements on moving keys were held at a cutover")
                .publishPercentileHistogram().minimumExpectedValue(Duration.ofMillis(1))
                .maximumExpectedValue(Duration.ofSeconds(5)).register(registry);
        Gauge.builder(LAG_EVENTS, lag, l -> l.get()[0]).description("Binlog row events of the moving keys not yet applied")
                .register(registry);
        Gauge.builder(LAG_SECONDS, lag, l -> l.get()[1]).description("Age of the oldest catch-up event not yet applied")
                .register(registry);
        for (MovePhase phase : MovePhase.values()) {
            Gauge.builder(PHASE, phases, p -> p.get().getOrDefault(phase, 0)).tag("phase", phase.name().toLowerCase())
                    .description("Moves in each phase").register(registry);
        }
    }

    public static MoveMetrics none() {
        return new MoveMetrics(new io.micrometer.core.instrument.simple.SimpleMeterRegistry(),
                () -> new EnumMap<>(MovePhase.class));
    }

    void copied(long rows) {
        rowsCopied.increment(rows);
    }

    void lag(long events, double seconds) {
        lag.set(new double[] {events, seconds});
    }

    void paused(long nanos) {
        pause.record(Duration.ofNanos(nanos));
    }

    void ended(MovePhase outcome) {
        outcomes.computeIfAbsent(outcome.name().toLowerCase(), o -> Counter.builder(MOVES).tag("outcome", o)
                .description("Moves ended, by outcome").register(registry)).increment();
    }
}
