package io.cleave.manager.backup.physical;

import io.cleave.manager.instance.Flavour;
import io.cleave.manager.instance.ServerBinary;
import io.cleave.manager.instance.ServerVersion;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

import static org.assertj.core.api.Assertions.assertThat;

/** Which mariadb-backup fits a server: scripts standing in for the tools print what the real ones print. */
class BackupToolTest {

    @TempDir
    Path dir;

    @Test
    void theToolBesideTheServerIsUsedWhenBuiltForItsVersion() throws IOException {
        ServerBinary server = mariadb(ServerVersion.parse("10.11.19"));
        tool("mariadb-backup", "10.11.19");
        tool("mbstream", "10.11.19");
        BackupTool.Lookup found = BackupTool.forServer(server, "");
        assertThat(found.why()).isNull();
        assertThat(found.tool().backup()).isEqualTo(dir.resolve("usr/bin/mariadb-backup"));
        assertThat(found.tool().mbstream()).isEqualTo(dir.resolve("usr/bin/mbstream"));
    }

    @Test
    void aToolOfAnotherVersionIsRefusedSayingWhich() throws IOException {
        tool("mariadb-backup", "11.4.5");
        tool("mbstream", "11.4.5");
        BackupTool.Lookup refused = BackupTool.forServer(mariadb(ServerVersion.parse("10.11.19")), "");
        assertThat(refused.found()).isFalse();
        assertThat(refused.why()).contains("built for MariaDB 11.4.5").contains("must match the server's version 10.11")
                .contains("--engine logical");
    }

    @Test
    void noToolOrAMysqlServerIsRefusedSayingWhy() {
        BackupTool.Lookup none = BackupTool.forServer(mariadb(ServerVersion.parse("11.4.5")), "");
        assertThat(none.why()).contains("no mariadb-backup beside").contains("install the mariadb-backup of MariaDB 11.4");
        ServerBinary mysql = new ServerBinary(dir.resolve("usr/sbin/mysqld"), dir, Flavour.MYSQL,
                ServerVersion.parse("8.4.3"), ServerBinary.Source.CONFIGURED, "mysqld 8.4.3");
        assertThat(BackupTool.forServer(mysql, "").why()).contains("copies MariaDB servers only");
    }

    private ServerBinary mariadb(ServerVersion version) {
        return new ServerBinary(dir.resolve("usr/sbin/mariadbd"), dir.resolve("usr"), Flavour.MARIADB, version,
                ServerBinary.Source.CONFIGURED, "mariadbd " + version);
    }

    /** A script that answers --version as mariadb-backup of {@code version} does. */
    private void tool(String name, String version) throws IOException {
        Path bin = Files.createDirectories(dir.resolve("usr/bin"));
        Path script = bin.resolve(name);
        Files.writeString(script, "#!/bin/sh\necho \"" + script + " based on MariaDB server " + version
                + "-MariaDB debian-linux-gnu (x86_64)\"\n");
        Files.setPosixFilePermissions(script, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
