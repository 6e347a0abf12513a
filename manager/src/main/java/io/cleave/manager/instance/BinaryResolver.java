package io.cleave.manager.instance;

import io.cleave.manager.config.ServerChoice;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.function.Supplier;

/**
 * Finds the server binary: the configured path; the embedded MariaDB when asked for by name; for
 * {@code auto} mysqld/mariadbd on PATH, else the embedded MariaDB. The choice is probed ({@code --version}) so a wrong file fails here, with its name.
 */
public final class BinaryResolver {

    private static final List<String> NAMES = List.of("mysqld", "mariadbd");

    private final String pathVariable;
    private final Supplier<EmbeddedServer> embedded;

    /**
     * @param pathVariable the PATH to search (the process's own, normally)
     * @param embedded     the embedded server to fall back to
     */
    public BinaryResolver(String pathVariable, Supplier<EmbeddedServer> embedded) {
        this.pathVariable = pathVariable == null ? "" : pathVariable;
        this.embedded = embedded;
    }

    public ServerBinary resolve(ServerChoice choice) {
        if (choice instanceof ServerChoice.Configured c) {
            return probe(c.mysqld(), ServerBinary.Source.CONFIGURED);
        }
        if (choice instanceof ServerChoice.Auto) {
            Optional<Path> onPath = findOnPath();
            if (onPath.isPresent()) {
                return probe(onPath.get(), ServerBinary.Source.PATH);
            }
            try {
                return embedded.get().ensureExtracted();
            } catch (BinaryException e) {
                throw new BinaryException("no mysqld or mariadbd on PATH and " + e.getMessage(), e);
            }
        }
        return embedded.get().ensureExtracted();
    }

    /** The first mysqld or mariadbd in PATH order (within one directory mysqld wins). */
    public Optional<Path> findOnPath() {
        for (String dir : pathVariable.split(File.pathSeparator)) {
            if (dir.isBlank()) {
                continue;
            }
            for (String name : NAMES) {
                Path candidate = Path.of(dir, name);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    private static ServerBinary probe(Path mysqld, ServerBinary.Source source) {
        if (!Files.isRegularFile(mysqld) || !Files.isExecutable(mysqld)) {
            throw new BinaryException(mysqld + " is not an executable file");
        }
        VersionProbe.Identity identity = VersionProbe.probe(mysqld);
        return new ServerBinary(mysqld, basedirOf(mysqld), identity.flavour(), identity.version(), source, identity.line());
    }

    /** {@code /usr/sbin/mysqld} belongs to {@code /usr}; a binary outside bin/sbin/libexec to its own directory. */
    static Path basedirOf(Path mysqld) {
        Path real;
        try {
            real = mysqld.toRealPath();
        } catch (IOException e) {
            real = mysqld.toAbsolutePath();
        }
        Path dir = real.getParent();
        String name = dir.getFileName() == null ? "" : dir.getFileName().toString();
        if ((name.equals("bin") || name.equals("sbin") || name.equals("libexec")) && dir.getParent() != null) {
            return dir.getParent();
        }
        return dir;
    }
}
