package io.cleave.manager.home;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Set;

/** Random secrets kept in files only their owner can read (0600). */
public final class Secrets {

    private static final Logger log = LoggerFactory.getLogger(Secrets.class);
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");

    private Secrets() {
    }

    /** The secret in {@code file}, created with 32 random hex characters when absent. */
    public static String readOrCreate(Path file) {
        try {
            if (!Files.exists(file)) {
                byte[] bytes = new byte[16];
                new SecureRandom().nextBytes(bytes);
                try {
                    writePrivate(file, HexFormat.of().formatHex(bytes) + "\n");
                } catch (FileAlreadyExistsException e) {
                    // created concurrently: read the winner's
                }
            }
            if (!Files.getPosixFilePermissions(file).equals(OWNER_ONLY)) {
                log.warn("{} was readable by others; restricting it to its owner (0600)", file);
                Files.setPosixFilePermissions(file, OWNER_ONLY);
            }
            String secret = Files.readString(file, StandardCharsets.UTF_8).trim();
            if (secret.isEmpty()) {
                throw new IllegalStateException(file + " is empty: delete it and a new secret is generated");
            }
            return secret;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or create the secret " + file + ": " + e.getMessage(), e);
        }
    }

    /** Writes a new file that only its owner can read; fails if it exists. */
    public static void writePrivate(Path file, String content) throws IOException {
        Files.createDirectories(file.getParent());
        Files.createFile(file, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
        Files.writeString(file, content, StandardCharsets.UTF_8);
    }

    /** Replaces {@code file} atomically with owner-only content. */
    public static void replacePrivate(Path file, String content) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        writePrivate(tmp, content);
        Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING, java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }
}
