package io.cleave.manager.instance;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Initializes shard datadirs. Each server binary+version gets one pristine datadir template in the
 * cache, made the way that flavour wants it (mariadb-install-db, or mysqld --initialize-insecure);
 * every shard datadir is a copy of it, which takes a fraction of a second instead of seconds.
 */
public final class DatadirInitializer {

    private static final Logger log = LoggerFactory.getLogger(DatadirInitializer.class);
    public static final String MARKER = "cleave-datadir.properties";

    private final Path cacheDir;
    private final boolean runAsRoot;

    public DatadirInitializer(Path cacheDir, boolean runAsRoot) {
        this.cacheDir = cacheDir;
        this.runAsRoot = runAsRoot;
    }

    /** What initializing one datadir did. */
    public enum Outcome {
        CREATED, ALREADY_INITIALIZED
    }

    public Path templateDir(ServerBinary binary) {
        return cacheDir.resolve("templates").resolve(binary.templateKey());
    }

    /** The cached template for this server, made first if it does not exist yet. */
    public Path ensureTemplate(ServerBinary binary) {
        Path template = templateDir(binary);
        if (Files.isRegularFile(template.resolve(MARKER))) {
            return template;
        }
        try {
            Files.createDirectories(template.getParent());
            Path build = Files.createTempDirectory(template.getParent(), ".build-");
            Path data = build.resolve("data");
            long started = System.nanoTime();
            run(initCommand(binary, data), build.resolve("init.log"), binary);
            writeMarker(data, binary);
            try {
                Files.move(data, template, StandardCopyOption.ATOMIC_MOVE);
            } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
                log.info("another process made the template {} meanwhile; using it", template);
            }
            EmbeddedServer.deleteTree(build);
            log.info("made the datadir template {} in {} ms", template, (System.nanoTime() - started) / 1_000_000);
            return template;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot make the datadir template " + template + ": " + e.getMessage(), e);
        }
    }

    /** Copies the template into the plan's datadir unless that datadir is already initialized. */
    public Outcome initialize(InstancePlan plan, ServerBinary binary) {
        Path datadir = plan.datadir();
        try {
            if (Files.isRegularFile(datadir.resolve(MARKER))) {
                checkFlavour(datadir, binary);
                return Outcome.ALREADY_INITIALIZED;
            }
            if (Files.isDirectory(datadir)) {
                try (Stream<Path> entries = Files.list(datadir)) {
                    if (entries.findAny().isPresent()) {
                        throw new IllegalStateException("datadir " + datadir + " of " + plan.name()
                                + " is not empty and was not initialized by cleave: move it away, or point datadir_roots elsewhere");
                    }
                }
                Files.delete(datadir);
            }
            Path template = ensureTemplate(binary);
            Files.createDirectories(datadir.getParent());
            Path tmp = datadir.resolveSibling("." + datadir.getFileName() + ".copy");
            EmbeddedServer.deleteTree(tmp);
            copyTree(template, tmp);
            forgetIdentity(tmp, binary);
            if (plan.separateLogDir()) {
                moveRedoLogs(tmp, plan.logDir());
            }
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwx------"));
            Files.move(tmp, datadir, StandardCopyOption.ATOMIC_MOVE);
            return Outcome.CREATED;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot initialize datadir " + datadir + " of " + plan.name() + ": " + e.getMessage(), e);
        }
    }

    private List<String> initCommand(ServerBinary binary, Path data) {
        List<String> cmd = new ArrayList<>();
        if (binary.flavour() == Flavour.MARIADB) {
            cmd.add(installScript(binary).toString());
            cmd.add("--no-defaults");
            cmd.add("--basedir=" + binary.basedir());
            cmd.add("--datadir=" + data);
            cmd.add("--auth-root-authentication-method=normal");
            cmd.add("--skip-test-db");
        } else {
            cmd.add(binary.mysqld().toString());
            cmd.add("--no-defaults");
            cmd.add("--initialize-insecure");
            cmd.add("--basedir=" + binary.basedir());
            cmd.add("--datadir=" + data);
            cmd.add("--skip-log-bin"); // shards start their own binlog; none may come from the template
        }
        if (runAsRoot) {
            cmd.add("--user=root");
        }
        return cmd;
    }

    private static Path installScript(ServerBinary binary) {
        Path base = binary.basedir();
        for (Path candidate : List.of(base.resolve("scripts/mariadb-install-db"), base.resolve("bin/mariadb-install-db"),
                base.resolve("scripts/mysql_install_db"), base.resolve("bin/mysql_install_db"))) {
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new BinaryException("MariaDB at " + base + " has no mariadb-install-db in scripts/ or bin/: "
                + "install the server package that ships it, or set server.binary to a complete installation");
    }

    private static void run(List<String> cmd, Path logFile, ServerBinary binary) throws IOException {
        Process process = new ProcessBuilder(cmd).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.to(logFile.toFile())).start();
        try {
            if (!process.waitFor(10, TimeUnit.MINUTES)) {
                process.destroyForcibly();
                throw new IOException("datadir initialization by " + binary.describe() + " did not finish within 10 minutes");
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while initializing a datadir");
        }
        if (process.exitValue() != 0) {
            throw new IOException("'" + String.join(" ", cmd) + "' failed with exit code " + process.exitValue()
                    + "; its output ends with:\n" + LogTail.lastLines(logFile, 20));
        }
    }

    /** A copied datadir must not share what makes a server unique (server UUID, TLS keys). */
    private static void forgetIdentity(Path datadir, ServerBinary binary) throws IOException {
        if (!binary.flavour().isMysqlFamily()) {
            return;
        }
        Files.deleteIfExists(datadir.resolve("auto.cnf"));
        try (Stream<Path> files = Files.list(datadir)) {
            for (Path pem : files.filter(p -> p.getFileName().toString().endsWith(".pem")).toList()) {
                Files.delete(pem);
            }
        }
    }

    /** Redo logs follow innodb_log_group_home_dir to the separate log device. */
    private static void moveRedoLogs(Path datadir, Path logDir) throws IOException {
        Files.createDirectories(logDir);
        try (Stream<Path> files = Files.list(datadir)) {
            for (Path p : files.toList()) {
                String name = p.getFileName().toString();
                if (name.startsWith("ib_logfile") || name.equals("#innodb_redo")) {
                    Path target = logDir.resolve(name);
                    EmbeddedServer.deleteTree(target);
                    copyTree(p, target);
                    EmbeddedServer.deleteTree(p);
                }
            }
        }
    }

    private static void writeMarker(Path datadir, ServerBinary binary) throws IOException {
        String text = "flavour=" + binary.flavour().name() + "\nversion=" + binary.version() + "\ncreated=" + Instant.now() + "\n";
        Files.writeString(datadir.resolve(MARKER), text, StandardCharsets.UTF_8);
    }

    private static void checkFlavour(Path datadir, ServerBinary binary) throws IOException {
        Properties p = new Properties();
        try (var in = Files.newInputStream(datadir.resolve(MARKER))) {
            p.load(in);
        }
        String flavour = p.getProperty("flavour", "");
        if (!flavour.equals(binary.flavour().name())) {
            throw new IllegalStateException("datadir " + datadir + " was made by " + flavour + " " + p.getProperty("version")
                    + " but the server is " + binary.describe() + ": the two do not share datadirs; use server.binary of the same flavour");
        }
        if (!p.getProperty("version", "").equals(binary.version().toString())) {
            log.warn("datadir {} was made by {} {}, the server is now {}: the server upgrades it on start if it can",
                    datadir, flavour, p.getProperty("version"), binary.version());
        }
    }

    /**
     * Copies a datadir (the template into a shard's, or a standalone test server's) with every
     * file sparse: see {@link #copySparse}.
     */
    public static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> paths = Files.walk(from)) {
            for (Path source : paths.toList()) {
                Path target = to.resolve(from.relativize(source).toString());
                if (Files.isDirectory(source)) {
                    Files.createDirectories(target);
                } else {
                    copySparse(source, target);
                }
            }
        }
    }

    /**
     * Copies a file leaving all-zero blocks as holes. A fresh datadir is mostly preallocated zeros
     * (redo log, undo and system tablespaces): skipping them makes a shard's copy a few MB of
     * writes instead of ~150 MB, and InnoDB reads holes as the zeros they stand for.
     */
    private static void copySparse(Path source, Path target) throws IOException {
        final int block = 64 * 1024;
        try (FileChannel in = FileChannel.open(source, StandardOpenOption.READ);
             FileChannel out = FileChannel.open(target, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
            ByteBuffer buf = ByteBuffer.allocate(block);
            long position = 0;
            long size = in.size();
            while (position < size) {
                buf.clear();
                int n = in.read(buf, position);
                if (n <= 0) {
                    break;
                }
                buf.flip();
                if (!allZero(buf.array(), n)) {
                    while (buf.hasRemaining()) {
                        out.write(buf, position + buf.position());
                    }
                }
                position += n;
            }
            if (out.size() < size) {
                out.write(ByteBuffer.wrap(new byte[1]), size - 1); // sets the length; the last byte is zero anyway
            }
        }
        Files.setPosixFilePermissions(target, Files.getPosixFilePermissions(source));
        Files.setLastModifiedTime(target, Files.getLastModifiedTime(source));
    }

    private static boolean allZero(byte[] bytes, int length) {
        for (int i = 0; i < length; i++) {
            if (bytes[i] != 0) {
                return false;
            }
        }
        return true;
    }
}
