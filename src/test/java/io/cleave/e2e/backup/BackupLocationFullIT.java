package io.cleave.e2e.backup;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.backup.BackupPhase;
import io.cleave.manager.backup.BackupStatus;
import io.cleave.manager.config.BackupEngine;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A backup location that fills up (ENOSPC): a tmpfs of 384 KiB mounted for the test (skipped where
 * mounting is not allowed: it needs root), a backup of about 1.5 MB of rows that do not compress. The
 * backup fails with a message saying the location is full, leaves no file there (chunks, hidden
 * half-written siblings, its start record), lists nothing, and the daemon goes on: the proxy answers
 * and the next backup, to a location with room, completes.
 */
class BackupLocationFullIT {

    private static final int ROWS = 1500;

    @Test
    void aBackupToALocationThatFillsUpFailsLeavingNothingAndTheDaemonGoesOn() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-full-", BackupRestoreIT.SEARCHABLE);
        Path full = Files.createDirectory(work.resolve("full"));
        boolean mounted = run("mount", "-t", "tmpfs", "-o", "size=384k", "tmpfs", full.toString());
        try {
            Assumptions.assumeTrue(mounted, "mounting a tmpfs for a location that fills up needs root");
            try (CleaveTestHome home = CleaveTestHome.builder().shards(2).create();
                 RunningDaemon daemon = home.start()) {
                try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
                    s.execute("CREATE DATABASE filler");
                    s.execute("CREATE TABLE filler.blobs (id INT PRIMARY KEY, body VARBINARY(1024) NOT NULL)");
                    Random random = new Random(5);
                    try (PreparedStatement ps = c.prepareStatement("INSERT INTO filler.blobs VALUES (?, ?)")) {
                        for (int i = 1; i <= ROWS; i++) {
                            byte[] body = new byte[1024];
                            random.nextBytes(body);
                            ps.setInt(1, i);
                            ps.setBytes(2, body);
                            ps.addBatch();
                        }
                        ps.executeBatch();
                    }
                }

                BackupStatus started = daemon.daemon().backups().start(full.toString(), BackupEngine.LOGICAL);
                BackupStatus ended = BackupRestoreIT.awaitEnd(daemon, started.id());
                assertThat(ended.phase()).isEqualTo(BackupPhase.FAILED);
                assertThat(ended.message()).contains("is full").contains(full.toString());
                try (Stream<Path> left = Files.walk(full)) {
                    assertThat(left.filter(Files::isRegularFile).toList()).as("files the failed backup left").isEmpty();
                }
                assertThat(daemon.daemon().backups().list(full.toString()).backups()).as("backups listed").isEmpty();

                try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement();
                     var rs = s.executeQuery("SELECT COUNT(*) FROM filler.blobs")) {
                    rs.next();
                    assertThat(rs.getLong(1)).isEqualTo(ROWS);
                }
                BackupStatus next = BackupRestoreIT.awaitEnd(daemon,
                        daemon.daemon().backups().start(work.resolve("roomy").toString(), BackupEngine.LOGICAL).id());
                assertThat(next.phase()).as(next.message()).isEqualTo(BackupPhase.DONE);
                assertThat(next.rowsRead()).isGreaterThanOrEqualTo(ROWS);
            }
        } finally {
            if (mounted) {
                run("umount", full.toString());
            }
            BackupRestoreIT.deleteTree(work);
        }
    }

    private static boolean run(String... command) throws Exception {
        try {
            Process p = new ProcessBuilder(List.of(command)).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0;
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
