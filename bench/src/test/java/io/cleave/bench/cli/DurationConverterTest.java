package io.cleave.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import org.junit.jupiter.api.Test;
import picocli.CommandLine.TypeConversionException;

class DurationConverterTest {
    private final DurationConverter converter = new DurationConverter();

    @Test
    void acceptsTheUsualSpellings() {
        assertThat(converter.convert("90")).isEqualTo(Duration.ofSeconds(90));
        assertThat(converter.convert("2.5")).isEqualTo(Duration.ofMillis(2500));
        assertThat(converter.convert("90s")).isEqualTo(Duration.ofSeconds(90));
        assertThat(converter.convert("500ms")).isEqualTo(Duration.ofMillis(500));
        assertThat(converter.convert("5m")).isEqualTo(Duration.ofMinutes(5));
        assertThat(converter.convert("1h")).isEqualTo(Duration.ofHours(1));
        assertThat(converter.convert("PT1M30S")).isEqualTo(Duration.ofSeconds(90));
    }

    @Test
    void rejectsNonsense() {
        assertThatThrownBy(() -> converter.convert("soon")).isInstanceOf(TypeConversionException.class);
    }
}
