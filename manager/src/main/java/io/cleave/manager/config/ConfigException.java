package io.cleave.manager.config;

import java.util.List;
import java.util.stream.Collectors;

/** A config that cannot be used; carries every problem found, each with file, line and field. */
public final class ConfigException extends RuntimeException {

    private final List<ConfigError> errors;

    public ConfigException(List<ConfigError> errors) {
        super(errors.stream().map(ConfigError::toString).collect(Collectors.joining("\n")));
        this.errors = List.copyOf(errors);
    }

    public ConfigException(String file, String message) {
        this(List.of(new ConfigError(file, 1, "(file)", message)));
    }

    public List<ConfigError> errors() {
        return errors;
    }
}
