package io.cleave.bench.measure;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * The 1, 5 and 15 minute load averages from /proc/loadavg, recorded with every measurement: a
 * figure taken while other work ran on the host says so.
 */
public record LoadAverage(double one, double five, double fifteen) {
    public static final LoadAverage UNKNOWN = new LoadAverage(-1, -1, -1);

    public static LoadAverage read() {
        try {
            return parse(Files.readString(Path.of("/proc/loadavg")));
        } catch (IOException | RuntimeException e) {
            return UNKNOWN;
        }
    }

    static LoadAverage parse(String line) {
        String[] f = line.trim().split("\\s+");
        return new LoadAverage(Double.parseDouble(f[0]), Double.parseDouble(f[1]), Double.parseDouble(f[2]));
    }

    @Override
    public String toString() {
        return this.equals(UNKNOWN) ? "unknown" : String.format(Locale.ROOT, "%.2f %.2f %.2f", one, five, fifteen);
    }
}
