package io.cleave.manager.instance;

import java.nio.file.Path;

/**
 * A resolved, checked server binary.
 *
 * @param mysqld      the server executable
 * @param basedir     the installation it belongs to (holds share/, and scripts/ for MariaDB)
 * @param source      how it was found
 * @param versionLine what {@code --version} printed, for status and logs
 */
public record ServerBinary(Path mysqld, Path basedir, Flavour flavour, ServerVersion version, Source source,
                           String versionLine) {

    public enum Source {
        CONFIGURED, PATH, EMBEDDED
    }

    /** A short key naming flavour and version, used to cache one datadir template per server. */
    public String templateKey() {
        return flavour.name().toLowerCase(java.util.Locale.ROOT) + "-" + version;
    }

    public String describe() {
        return flavour.displayName() + " " + version + " (" + mysqld + ", " + source.name().toLowerCase(java.util.Locale.ROOT) + ")";
    }
}
