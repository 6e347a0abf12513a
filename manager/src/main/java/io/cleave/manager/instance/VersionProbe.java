package io.cleave.manager.instance;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs {@code mysqld --version} and tells the flavour and version from what it prints. */
public final class VersionProbe {

    /** The flavour and version of a binary, as parsed from its version line. */
    public record Identity(Flavour flavour, ServerVersion version, String line) {
    }

    private VersionProbe() {
    }

    public static Identity probe(Path mysqld) {
        Process process;
        try {
            process = new ProcessBuilder(List.of(mysqld.toString(), "--no-defaults", "--version"))
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new BinaryException(mysqld + " cannot be run: " + e.getMessage());
        }
        try {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new BinaryException(mysqld + " --version did not finish within 30 s");
            }
            String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
            if (process.exitValue() != 0) {
                throw new BinaryException(mysqld + " --version failed (exit " + process.exitValue() + "): " + out);
            }
            return parse(out);
        } catch (IOException e) {
            throw new BinaryException(mysqld + " --version could not be read: " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BinaryException("interrupted while probing " + mysqld);
        }
    }

    /**
     * Parses lines such as {@code mariadbd  Ver 11.4.5-MariaDB for linux-systemd on x86_64 (MariaDB Server)},
     * {@code mysqld  Ver 8.4.3 for Linux on x86_64 (MySQL Community Server - GPL)} and
     * {@code mysqld  Ver 8.0.36-28 for Linux on x86_64 (Percona Server (GPL), Release 28, Revision 47601f19)}.
     */
    public static Identity parse(String output) {
        String line = output.lines().filter(l -> l.contains(" Ver ")).findFirst()
                .orElseThrow(() -> new BinaryException("not a MySQL-compatible server: --version printed '" + output + "'"));
        ServerVersion version;
        try {
            version = ServerVersion.parse(line.substring(line.indexOf(" Ver ")));
        } catch (IllegalArgumentException e) {
            throw new BinaryException("no version in '" + line + "'");
        }
        Flavour flavour = line.contains("MariaDB") ? Flavour.MARIADB
                : line.contains("Percona") ? Flavour.PERCONA : Flavour.MYSQL;
        if (flavour == Flavour.MARIADB && !version.atLeast(10, 6)) {
            throw new BinaryException("MariaDB " + version + " is too old: Cleave needs MariaDB 10.6 or newer");
        }
        if (flavour.isMysqlFamily() && version.major() < 8) {
            throw new BinaryException(flavour.displayName() + " " + version + " is too old: Cleave needs 8.0 or newer");
        }
        return new Identity(flavour, version, line.trim());
    }
}
