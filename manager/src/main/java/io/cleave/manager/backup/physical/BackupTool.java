package io.cleave.manager.backup.physical;

import io.cleave.manager.backup.restore.Tools;
import io.cleave.manager.instance.ServerBinary;
import io.cleave.manager.instance.ServerVersion;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * The shards' own {@code mariadb-backup} and {@code mbstream}: found beside the server binary (its
 * distribution's bin/), else on PATH, and used only when it was built for the server's major and
 * minor version (mariadb-backup reads the server's files: one of another version may misread them).
 */
public record BackupTool(Path backup, Path mbstream, ServerVersion version) {

    /** A tool that fits, or why there is none ({@code why} then says what to do). */
    public record Lookup(BackupTool tool, String why) {
        public boolean found() {
            return tool != null;
        }
    }

    /** The mariadb-backup that fits {@code server} (null: the shards' binary is unknown). */
    public static Lookup forServer(ServerBinary server, String pathVariable) {
        if (server == null) {
            return new Lookup(null, "the shards' server binary is not known here");
        }
        if (server.flavour().isMysqlFamily()) {
            return new Lookup(null, "the shards run " + server.describe() + ", and the physical engine runs"
                    + " mariadb-backup, which copies MariaDB servers only");
        }
        String wanted = server.version().major() + "." + server.version().minor();
        Optional<Path> backup = Tools.locate(server.mysqld(), pathVariable, "mariadb-backup", "mariabackup");
        if (backup.isEmpty()) {
            return new Lookup(null, "no mariadb-backup beside " + server.mysqld() + " or on PATH for the shards'"
                    + " MariaDB " + server.version() + (server.source() == ServerBinary.Source.EMBEDDED
                    ? " (the embedded MariaDB ships none)" : "") + "; install the mariadb-backup of MariaDB " + wanted
                    + " (Debian: apt-get install mariadb-backup) or use --engine logical");
        }
        ServerVersion version;
        try {
            version = versionOf(backup.get());
        } catch (IOException | RuntimeException e) {
            return new Lookup(null, backup.get() + " does not run (" + e.getMessage() + "); use --engine logical");
        }
        if (version.major() != server.version().major() || version.minor() != server.version().minor()) {
            return new Lookup(null, backup.get() + " is built for MariaDB " + version + ", and the shards run "
                    + server.version() + ": mariadb-backup must match the server's version " + wanted
                    + "; install that one or use --engine logical");
        }
        Optional<Path> mbstream = Tools.locate(backup.get(), pathVariable, "mbstream");
        if (mbstream.isEmpty()) {
            return new Lookup(null, "no mbstream beside " + backup.get() + " (it comes with mariadb-backup)");
        }
        return new Lookup(new BackupTool(backup.get(), mbstream.get(), version), null);
    }

    /** What {@code mariadb-backup --version} says it was built for ("... based on MariaDB server 10.11.19-MariaDB"). */
    static ServerVersion versionOf(Path tool) throws IOException {
        Process p = new ProcessBuilder(tool.toString(), "--no-defaults", "--version").redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("'" + tool + " --version' failed: " + out.trim());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
        int at = out.indexOf("server ");
        return ServerVersion.parse(at >= 0 ? out.substring(at) : out);
    }
}
