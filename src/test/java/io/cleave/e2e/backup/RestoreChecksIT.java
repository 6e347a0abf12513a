package io.cleave.e2e.backup;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.cleave.e2e.moves.MoveChecks;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.backup.BackupPhase;
import io.cleave.manager.backup.BackupStatus;
import io.cleave.manager.backup.restore.Restore;
import io.cleave.manager.backup.restore.RestoreRequest;
import io.cleave.manager.cli.CleaveMain;
import io.cleave.manager.config.BackupEngine;
import io.cleave.manager.supervisor.ProcessInspector;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A restore whose tables do not all equal what the backup read (here: a manifest whose checksum of
 * k.t was changed after the backup) reports them and leaves the home marked unfinished with them, so
 * that {@code cleave up} refuses to serve rows that are not the backup's; no server is left running.
 */
class RestoreChecksIT {

    @Test
    void aRestoreWhoseTablesDifferFromTheBackupIsNotStartedByCleaveUp() throws Exception {
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-rs-checks-", BackupRestoreIT.SEARCHABLE);
        Path location = work.resolve("backups");
        Path restored = work.resolve("restored");
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).extraYaml(MoveChecks.TWO_RANGES).create();
             RunningDaemon daemon = home.start()) {
            try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE k");
                s.execute("CREATE TABLE k.t (w INT NOT NULL, i INT NOT NULL, PRIMARY KEY (w, i))");
                s.execute("INSERT INTO k.t VALUES (1, 1), (2, 2), (1500, 3)");
            }
            BackupStatus done = BackupRestoreIT.awaitEnd(daemon,
                    daemon.daemon().backups().start(location.toString(), BackupEngine.LOGICAL).id());
            assertThat(done.phase()).as(done.message()).isEqualTo(BackupPhase.DONE);
            changeChecksumOfKt(location);

            Restore.Result r = new Restore(daemon.daemon().config().backup(), System.getenv(), line -> { })
                    .run(new RestoreRequest(location.toString(), done.id(), OptionalLong.empty(), OptionalLong.empty(),
                            restored, OptionalInt.empty()));
            assertThat(r.problems()).as("the tables that differ").singleElement().asString().startsWith("k.t: ");
            assertThat(Files.readString(restored.resolve("state").resolve("restore-unfinished")))
                    .startsWith("its tables differ from the backup: k.t: ");
            try (Stream<Path> cnfs = Files.list(restored.resolve("etc"))) {
                for (Path cnf : cnfs.toList()) {
                    assertThat(ProcessInspector.findServerFor(cnf)).as("a server left running for %s", cnf).isEmpty();
                }
            }

            StringWriter err = new StringWriter();
            CommandLine up = CleaveMain.commandLine();
            up.setErr(new PrintWriter(err, true));
            assertThat(up.execute("up", "--home", restored.toString())).as("cleave up on it").isEqualTo(1);
            assertThat(err.toString()).contains(restored + " is a restore whose rows are not the backup's")
                    .contains("k.t: ");
        } finally {
            BackupRestoreIT.deleteTree(work);
        }
    }

    /** The manifest says k.t's rows have another checksum than the backup read. */
    private static void changeChecksumOfKt(Path location) throws Exception {
        Path manifest;
        try (Stream<Path> files = Files.walk(location)) {
            manifest = files.filter(p -> p.getFileName().toString().equals("manifest.json")).findFirst().orElseThrow();
        }
        ObjectMapper json = new ObjectMapper();
        JsonNode root = json.readTree(manifest.toFile());
        boolean changed = false;
        for (JsonNode t : root.get("tables")) {
            if (t.get("schema").asText().equals("k") && t.get("table").asText().equals("t")) {
                ((ObjectNode) t).put("checksum", t.get("checksum").asLong() ^ 1);
                changed = true;
            }
        }
        assertThat(changed).as("k.t in %s", manifest).isTrue();
        Files.write(manifest, json.writeValueAsBytes(root));
    }
}
