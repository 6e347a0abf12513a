package io.cleave.manager.backup.store;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class DirectoryStoreTest {

    @TempDir
    Path dir;

    @Test
    void objectsAreWrittenWholeAndListedWithoutTheirHiddenSiblings() throws Exception {
        DirectoryStore store = new DirectoryStore(dir.resolve("backups"));
        store.open();
        store.put("backups/b1/data/bank/accounts/s0-000000.zst", "rows".getBytes(StandardCharsets.UTF_8));
        store.put("backups/b1/manifest.json", "{}".getBytes(StandardCharsets.UTF_8));
        Files.writeString(dir.resolve("backups/backups/b1/.manifest.json.tmp"), "half");
        assertThat(store.list("backups/b1/")).containsExactly("backups/b1/data/bank/accounts/s0-000000.zst",
                "backups/b1/manifest.json");
        assertThat(new String(store.get("backups/b1/manifest.json"), StandardCharsets.UTF_8)).isEqualTo("{}");
    }

    @Test
    void aLocationThatVanishedFailsEveryWriteAndIsNotMadeAgain() throws Exception {
        Path root = dir.resolve("backups");
        DirectoryStore store = new DirectoryStore(root);
        store.open();
        store.put("backups/b1/started.json", new byte[] {1});
        Files.move(root, dir.resolve("unmounted"));
        assertThatThrownBy(() -> store.put("backups/b1/data/t/s0-000001.zst", new byte[] {2}))
                .isInstanceOf(NoSuchFileException.class).hasMessageContaining("gone");
        assertThatThrownBy(() -> store.list("backups/b1/")).isInstanceOf(NoSuchFileException.class);
        assertThat(root).doesNotExist();
    }
}
