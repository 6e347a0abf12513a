package io.cleave.bench.chaos;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;

/**
 * The faults of one run, drawn from its seed before it starts: when each fires and of which kind.
 * A pure function of the options, written beside the results ({@code schedule.json}) and printed,
 * so {@code --seed S --replay} runs the same faults in the same order.
 */
public record FaultSchedule(ChaosOptions options, List<ScheduledFault> faults) {
    public static final String FILE = "schedule.json";
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
    /** Workloads run this long before the first fault can be due. */
    static final long FIRST_FAULT_AFTER_MILLIS = 5_000;

    public FaultSchedule {
        faults = List.copyOf(faults);
    }

    /**
     * Faults at gaps drawn uniformly between 0.2 and 1.8 times the mean gap (60 s over the rate),
     * over the run's duration; each kind drawn in proportion to its weight.
     */
    public static FaultSchedule generate(ChaosOptions options) {
        SplittableRandom random = new SplittableRandom(options.seed());
        List<FaultKind> kinds = new ArrayList<>(options.faultKinds());
        int totalWeight = kinds.stream().mapToInt(FaultKind::weight).sum();
        double meanGap = 60_000 / options.faultsPerMinute();
        List<ScheduledFault> faults = new ArrayList<>();
        long at = FIRST_FAULT_AFTER_MILLIS;
        while (true) {
            at += Math.round(meanGap * (0.2 + 1.6 * random.nextDouble()));
            if (at > options.durationMillis()) {
                break;
            }
            int w = random.nextInt(totalWeight);
            FaultKind kind = kinds.get(0);
            for (FaultKind k : kinds) {
                if (w < k.weight()) {
                    kind = k;
                    break;
                }
                w -= k.weight();
            }
            faults.add(new ScheduledFault(faults.size() + 1, at, kind, random.nextLong()));
        }
        return new FaultSchedule(options, faults);
    }

    public void write(Path dir) throws IOException {
        Files.createDirectories(dir);
        JSON.writeValue(dir.resolve(FILE).toFile(), this);
    }

    public static FaultSchedule read(Path file) throws IOException {
        return JSON.readValue(file.toFile(), FaultSchedule.class);
    }

    /** One line per fault, for the console and the results. */
    public String describe() {
        StringBuilder b = new StringBuilder(String.format(Locale.ROOT, "seed %d: %d faults over %d s%n",
            options.seed(), faults.size(), options.durationMillis() / 1000));
        for (ScheduledFault f : faults) {
            b.append(String.format(Locale.ROOT, "  %4d  %8.1f s  %-24s draw %d%n", f.index(), f.atMillis() / 1000.0,
                f.kind().label(), f.draw()));
        }
        return b.toString();
    }
}
