package io.cleave.e2e.support;

import io.cleave.proxy.tls.SelfSignedCertificate;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * One self-signed proxy certificate for every test home of this JVM, copied into each home where its daemon
 * would make its own (state/tls): an RSA key costs the daemon 0.1-1.5 s at each new home, on a path no test
 * is about. The daemon makes its own where a test does not start it through {@link CleaveTestHome} (the
 * shipped jar's homes), so that path still runs.
 */
final class SharedProxyCertificate {

    private static Path dir;

    private SharedProxyCertificate() {
    }

    /** Copies the shared certificate and key into {@code home}'s state/tls, as the daemon names them. */
    static synchronized void copyInto(Path home) throws IOException {
        if (dir == null) {
            Path made = Files.createTempDirectory(Path.of("/tmp"), "cleave-it-tls-");
            SelfSignedCertificate.createIfMissing(made.resolve("proxy-cert.pem"), made.resolve("proxy-key.pem"),
                    "cleave-proxy");
            made.toFile().deleteOnExit();
            made.resolve("proxy-cert.pem").toFile().deleteOnExit();
            made.resolve("proxy-key.pem").toFile().deleteOnExit();
            dir = made;
        }
        Path tls = home.resolve("state").resolve("tls");
        Files.createDirectories(tls);
        Files.copy(dir.resolve("proxy-cert.pem"), tls.resolve("proxy-cert.pem"), StandardCopyOption.REPLACE_EXISTING);
        Path key = tls.resolve("proxy-key.pem");
        Files.copy(dir.resolve("proxy-key.pem"), key, StandardCopyOption.REPLACE_EXISTING);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
    }
}
