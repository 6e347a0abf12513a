package io.cleave.manager.config;

import java.nio.file.Path;

/**
 * Which server binary the shards run, as {@code server.binary} names it. {@code auto} depends on
 * the host (whatever server is on PATH wins over the embedded one), so a run that must use one
 * known server (the tests) names it: {@code embedded} or a path.
 */
public sealed interface ServerChoice {

    /** {@code auto}: mysqld/mariadbd on PATH, else the embedded MariaDB. */
    record Auto() implements ServerChoice {
    }

    /** {@code embedded}: the MariaDB shipped with Cleave, whatever is on PATH. */
    record Embedded() implements ServerChoice {
    }

    /** A path to a mysqld/mariadbd binary. */
    record Configured(Path mysqld) implements ServerChoice {
    }
}
