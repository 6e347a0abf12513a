package io.cleave.manager.config;

import org.yaml.snakeyaml.nodes.Node;

import java.util.ArrayList;
import java.util.List;

/** Collects every problem of one file, so a user fixes them all in one round. */
final class Problems {

    private final String file;
    private final List<ConfigError> errors = new ArrayList<>();

    Problems(String file) {
        this.file = file;
    }

    String file() {
        return file;
    }

    void add(Node at, String field, String message) {
        add(lineOf(at), field, message);
    }

    void add(int line, String field, String message) {
        errors.add(new ConfigError(file, line, field, message));
    }

    int size() {
        return errors.size();
    }

    boolean isEmpty() {
        return errors.isEmpty();
    }

    void throwIfAny() {
        if (!errors.isEmpty()) {
            throw new ConfigException(errors);
        }
    }

    static int lineOf(Node node) {
        return node == null || node.getStartMark() == null ? 1 : node.getStartMark().getLine() + 1;
    }
}
