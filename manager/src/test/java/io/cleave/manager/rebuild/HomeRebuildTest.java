package io.cleave.manager.rebuild;

import io.cleave.manager.home.CleaveHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class HomeRebuildTest {

    @TempDir
    Path tmp;

    @Test
    void aRebuildIsCutShortWhileTheHomeHoldsOnlyWhatItPutAsideOrAnUnfinishedSeed() throws Exception {
        CleaveHome home = new CleaveHome(tmp.resolve("a"));
        home.createDirectories();
        assertThat(HomeRebuild.cutShort(home)).as("a home never rebuilt").isFalse();

        Files.createDirectories(home.root().resolve("errant").resolve("2"));
        assertThat(HomeRebuild.cutShort(home)).as("a rebuilt home, its daemon stopped").isFalse();

        try (var entries = Files.list(home.root())) {
            for (Path entry : entries.filter(p -> !p.getFileName().toString().equals("errant")).toList()) {
                delete(entry);
            }
        }
        assertThat(HomeRebuild.cutShort(home)).as("put aside, the seed not begun").isTrue();

        Files.createDirectories(home.state());
        Files.writeString(home.state().resolve("restore-unfinished"), "a restore is building this home\n");
        assertThat(HomeRebuild.cutShort(home)).as("the seed's restore unfinished").isTrue();
    }

    private static void delete(Path dir) throws Exception {
        try (var paths = Files.walk(dir)) {
            for (Path p : paths.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }
}
