package io.cleave.manager.home;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Map;

/**
 * The one directory everything the daemon writes lives under:
 * <pre>
 * state/   admin token, shard account secret, shard map, daemon.json, lock   (0700)
 * run/     sockets and pid files                                           (0700)
 * data/    shard-N datadirs, unless datadir_roots are configured
 * logs/    error logs, daemon.log when detached
 * etc/     shard-N.cnf
 * </pre>
 */
public final class CleaveHome {

    /** Linux's sun_path holds 108 bytes including the terminating NUL. */
    public static final int MAX_SOCKET_PATH = 107;
    private static final String LONGEST_SOCKET_NAME = "shard-63.sock.lock";

    private final Path root;

    public CleaveHome(Path root) {
        this.root = root.toAbsolutePath().normalize();
    }

    /** {@code --home}, else {@code $CLEAVE_HOME}, else {@code ./cleave-home}. */
    public static CleaveHome resolve(Path explicit, Map<String, String> env) {
        if (explicit != null) {
            return new CleaveHome(explicit);
        }
        String fromEnv = env.get("CLEAVE_HOME");
        return new CleaveHome(Path.of(fromEnv != null && !fromEnv.isBlank() ? fromEnv : "cleave-home"));
    }

    /** {@code $CLEAVE_CACHE}, else {@code $XDG_CACHE_HOME/cleave}, else {@code ~/.cache/cleave}. */
    public static Path cacheDir(Map<String, String> env) {
        String explicit = env.get("CLEAVE_CACHE");
        if (explicit != null && !explicit.isBlank()) {
            return Path.of(explicit).toAbsolutePath();
        }
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank()) {
            return Path.of(xdg, "cleave").toAbsolutePath();
        }
        return Path.of(System.getProperty("user.home"), ".cache", "cleave");
    }

    public Path root() {
        return root;
    }

    public Path state() {
        return root.resolve("state");
    }

    public Path logs() {
        return root.resolve("logs");
    }

    public Path etc() {
        return root.resolve("etc");
    }

    public Path data() {
        return root.resolve("data");
    }

    /**
     * Where sockets and pid files go: {@code run/}, or, when that path is too long for a Unix
     * socket, {@code /tmp/cleave-<hash of home>} (recorded in {@code state/run-dir} so it is found again).
     */
    public Path run() {
        Path run = root.resolve("run");
        if (run.resolve(LONGEST_SOCKET_NAME).toString().getBytes(StandardCharsets.UTF_8).length <= MAX_SOCKET_PATH) {
            return run;
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "cleave-" + shortHash(root.toString()));
    }

    public Path adminTokenFile() {
        return state().resolve("admin-token");
    }

    public Path shardSecretFile() {
        return state().resolve("shard-secret");
    }

    public Path shardMapFile() {
        return state().resolve("shard-map.json");
    }

    public Path daemonInfoFile() {
        return state().resolve("daemon.json");
    }

    public Path lockFile() {
        return state().resolve("daemon.lock");
    }

    /**
     * The SQL a shard runs at its first start to make the shard account: in the run directory, which
     * the shards' OS user owns (the server reads it after it dropped root), private to it.
     */
    public Path accountInitFile() {
        return run().resolve("shard-account.sql");
    }

    /**
     * The shards' TLS certificate and key as the servers read them (server.replication_tls): in the run directory,
     * which their OS user owns; the home keeps its own copies in {@code state/tls}.
     */
    public Path shardTlsCertificate() {
        return run().resolve("shard-tls-cert.pem");
    }

    public Path shardTlsKey() {
        return run().resolve("shard-tls-key.pem");
    }

    /** The only directory the shards read and write files in (secure_file_priv): LOAD DATA INFILE, SELECT ... INTO OUTFILE. */
    public Path files() {
        return root.resolve("files");
    }

    /** Creates the layout; state/ and run/ are private to the owner. */
    public void createDirectories() {
        try {
            for (Path dir : new Path[] {state(), run(), logs(), etc()}) {
                Files.createDirectories(dir);
            }
            Files.setPosixFilePermissions(state(), PosixFilePermissions.fromString("rwx------"));
            Files.setPosixFilePermissions(run(), PosixFilePermissions.fromString("rwx------"));
            if (!run().startsWith(root)) {
                Files.writeString(state().resolve("run-dir"), run() + "\n");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the home directory layout under " + root + ": " + e.getMessage(), e);
        }
    }

    static String shortHash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 6);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    @Override
    public String toString() {
        return root.toString();
    }
}
