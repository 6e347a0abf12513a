package io.cleave.manager.config;

/**
 * One problem in a config file, located precisely enough to fix without searching:
 * {@code config/cleave.yaml:12: proxy.users[0].password: ...}.
 */
public record ConfigError(String file, int line, String field, String message) {

    @Override
    public String toString() {
        return file + ":" + line + ": " + field + ": " + message;
    }
}
