package io.cleave.manager.rebuild;

import io.cleave.manager.home.CleaveHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ErrantKeepingTest {

    @TempDir
    Path tmp;

    /** A home as a daemon leaves it: shard 0's datadir inside it, shard 1's on a datadir root outside it. */
    private CleaveHome oldPrimary(Path outside) throws Exception {
        CleaveHome home = new CleaveHome(tmp.resolve("a"));
        home.createDirectories();
        Path d0 = Files.createDirectories(home.data().resolve("shard-0"));
        Files.writeString(d0.resolve("binlog.000002"), "the errant transaction");
        Files.createDirectories(outside);
        Files.writeString(home.etc().resolve("shard-0.cnf"), "[mysqld]\n# where\ndatadir = " + d0 + "\nlog_bin = "
                + d0.resolve("binlog") + "\n");
        Files.writeString(home.etc().resolve("shard-1.cnf"), "[mysqld]\ndatadir = " + outside + "\n");
        Files.writeString(home.root().resolve("cleave.yaml"), "shards: 2\n");
        Files.writeString(home.state().resolve("standby.json"), "{}");
        return home;
    }

    @Test
    void theOldHomeIsMovedAsideWholeWithTheRecordOfItsErrantTransactions() throws Exception {
        Path outside = tmp.resolve("flash1").resolve("shard-1");
        CleaveHome home = oldPrimary(outside);
        List<String> errant = List.of("shard 0: 0-1000-9 (the new primary has up to 0-1000-8)");

        ErrantKeeping.Kept kept = ErrantKeeping.keep(home, 2, "http://b:6034", errant, Instant.EPOCH);

        Path dir = home.root().resolve("errant").resolve("2");
        assertThat(kept.dir()).isEqualTo(dir);
        assertThat(home.root()).as("the home holds nothing else: a restore may build it again").isDirectoryContaining(
                p -> p.getFileName().toString().equals("errant"));
        try (var entries = Files.list(home.root())) {
            assertThat(entries.toList()).singleElement().isEqualTo(home.root().resolve("errant"));
        }
        assertThat(Files.readString(dir.resolve("shard-0").resolve("binlog.000002"))).isEqualTo("the errant transaction");
        assertThat(dir.resolve("home").resolve("cleave.yaml")).hasContent("shards: 2");
        assertThat(dir.resolve("home").resolve("state").resolve("standby.json")).exists();
        assertThat(dir.resolve("home").resolve("etc").resolve("shard-1.cnf")).exists();
        assertThat(outside).as("a datadir outside the home stays where it is").isDirectory();
        assertThat(kept.shards()).containsExactly(
                "shard 0: its datadir " + home.data().resolve("shard-0") + " is kept in " + dir.resolve("shard-0"),
                "shard 1: its datadir is left where it is, " + outside);
        String record = Files.readString(dir.resolve("ERRANT.txt"));
        assertThat(record).contains("standby of http://b:6034 (epoch 2)").contains(errant.get(0))
                .contains(kept.shards().get(0)).contains(kept.shards().get(1));
    }

    @Test
    void aSecondRebuildAtTheSameEpochKeepsTheFirstOne() throws Exception {
        CleaveHome home = oldPrimary(tmp.resolve("flash1").resolve("shard-1"));
        ErrantKeeping.keep(home, 2, "http://b:6034", List.of("shard 0: 0-1000-9"), Instant.EPOCH);
        Files.createDirectories(home.data().resolve("shard-0"));
        Files.writeString(home.data().resolve("shard-0").resolve("binlog.000001"), "second");
        Files.createDirectories(home.etc());
        Files.writeString(home.etc().resolve("shard-0.cnf"), "datadir = " + home.data().resolve("shard-0") + "\n");

        ErrantKeeping.Kept again = ErrantKeeping.keep(home, 2, "http://b:6034", List.of("shard 0: 0-1000-12"), Instant.EPOCH);

        assertThat(again.dir()).isEqualTo(home.root().resolve("errant").resolve("2-2"));
        assertThat(home.root().resolve("errant").resolve("2").resolve("shard-0").resolve("binlog.000002")).exists();
        assertThat(again.dir().resolve("shard-0").resolve("binlog.000001")).hasContent("second");
    }
}
