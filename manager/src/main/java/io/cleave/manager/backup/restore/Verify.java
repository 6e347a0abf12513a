package io.cleave.manager.backup.restore;

import io.cleave.manager.config.BackupConfig;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.function.Consumer;
import java.util.stream.Stream;

/**
 * {@code cleave backup --verify ID}: restores a backup into a scratch home (under the temporary
 * directory, deleted after), checks every table against the manifest's row counts and checksums, and
 * reports: a backup is known to restore, not hoped to.
 */
public final class Verify {

    /** What a verification found. */
    public record Report(String backup, String location, long rows, int tables, long millis, List<String> problems) {
        public boolean ok() {
            return problems.isEmpty();
        }

        public String summary() {
            return ok() ? String.format("backup %s verified: restored into a scratch home, %d tables and %,d rows equal to"
                    + " what the backup read at its cut (%.1f s)", backup, tables, rows, millis / 1000.0)
                    : "backup " + backup + " FAILED verification: " + problems.size() + " tables differ";
        }
    }

    private final BackupConfig config;
    private final Map<String, String> env;
    private final Consumer<String> say;

    public Verify(BackupConfig config, Map<String, String> env, Consumer<String> say) {
        this.config = config;
        this.env = env;
        this.say = say;
    }

    public Report run(String location, String backupId) throws Exception {
        // Open for search: when the daemon is root, the scratch home's shards run as server.os_user.
        Path scratch = Files.createTempDirectory(Path.of(System.getProperty("java.io.tmpdir")), "cleave-verify-",
                PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx--x--x")));
        try {
            Restore.Result r = new Restore(config, env, say).run(new RestoreRequest(location, backupId, OptionalLong.empty(),
                    OptionalLong.empty(), scratch.resolve("home"), OptionalInt.empty()));
            return new Report(r.backup(), location, r.rows(), r.checks().size(), r.millis(), r.problems());
        } finally {
            delete(scratch);
        }
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> paths = Files.walk(dir)) {
            for (Path p : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
