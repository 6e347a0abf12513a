package io.cleave.bench.cli;

import java.time.Duration;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

/** Accepts "90" (seconds), "90s", "500ms", "5m", "1h" or an ISO-8601 duration such as "PT1M30S". */
final class DurationConverter implements ITypeConverter<Duration> {

    @Override
    public Duration convert(String value) {
        String v = value.trim().toLowerCase();
        try {
            if (v.startsWith("pt") || v.startsWith("p")) {
                return Duration.parse(value.trim().toUpperCase());
            }
            if (v.endsWith("ms")) {
                return Duration.ofMillis(Long.parseLong(v.substring(0, v.length() - 2)));
            }
            if (v.endsWith("s")) {
                return Duration.ofMillis(Math.round(Double.parseDouble(v.substring(0, v.length() - 1)) * 1000));
            }
            if (v.endsWith("m")) {
                return Duration.ofSeconds(Long.parseLong(v.substring(0, v.length() - 1)) * 60);
            }
            if (v.endsWith("h")) {
                return Duration.ofHours(Long.parseLong(v.substring(0, v.length() - 1)));
            }
            return Duration.ofMillis(Math.round(Double.parseDouble(v) * 1000));
        } catch (RuntimeException e) {
            throw new TypeConversionException("not a duration: '" + value + "' (try 60, 60s, 5m or PT1M)");
        }
    }
}
