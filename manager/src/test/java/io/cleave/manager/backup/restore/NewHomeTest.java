package io.cleave.manager.backup.restore;

import io.cleave.manager.home.CleaveHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class NewHomeTest {

    @TempDir
    Path tmp;

    /**
     * A rebuild's seed cut short is discarded when the seed starts over (the same command again, or the seed's own retry
     * at another cut), but what the rebuild kept aside in the home is not: it holds the errant transactions.
     */
    @Test
    void discardingACutShortRestoreLeavesWhatARebuildKeptAside() throws Exception {
        CleaveHome home = new CleaveHome(tmp.resolve("a"));
        home.createDirectories();
        UnfinishedRestore.mark(home);
        Files.createDirectories(home.data().resolve("shard-0"));
        Files.writeString(home.root().resolve("cleave.yaml"), "shards: 2\n");
        Path kept = Files.createDirectories(home.root().resolve("errant").resolve("2").resolve("shard-0"));
        Files.writeString(kept.resolve("binlog.000002"), "the errant transaction");

        NewHome.discardUnfinished(home);

        assertThat(kept.resolve("binlog.000002")).hasContent("the errant transaction");
        try (var entries = Files.list(home.root())) {
            assertThat(entries.toList()).containsExactly(home.root().resolve("errant"));
        }
    }
}
