package io.cleave.manager.backup.physical;

import io.cleave.manager.backup.BackupManifest;
import io.cleave.manager.backup.store.DirectoryStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class StreamPartsTest {

    @TempDir
    Path dir;

    @Test
    void aStreamLongerThanAPartComesBackWholeFromItsParts() throws IOException {
        byte[] stream = new byte[StreamParts.PART * 2 + 12345];
        new Random(7).nextBytes(stream);
        AtomicLong stored = new AtomicLong();
        try (DirectoryStore store = new DirectoryStore(dir.resolve("loc"))) {
            store.open();
            List<BackupManifest.Chunk> parts = StreamParts.store(new ByteArrayInputStream(stream), Long.MAX_VALUE, store,
                    "b/physical/shard-0/stream/", 0, stored::addAndGet);
            assertThat(parts).extracting(BackupManifest.Chunk::bytes)
                    .containsExactly((long) StreamParts.PART, (long) StreamParts.PART, 12345L);
            assertThat(stored.get()).isEqualTo(parts.stream().mapToLong(BackupManifest.Chunk::storedBytes).sum());
            ByteArrayOutputStream back = new ByteArrayOutputStream();
            assertThat(StreamParts.restore(store, parts, back)).isEqualTo(stream.length);
            assertThat(back.toByteArray()).isEqualTo(stream);
        }
    }

    @Test
    void aLimitStopsTheStreamThereAndAnEmptyStreamIsOnePart() throws IOException {
        try (DirectoryStore store = new DirectoryStore(dir.resolve("loc"))) {
            store.open();
            List<BackupManifest.Chunk> cut = StreamParts.store(new ByteArrayInputStream(new byte[1000]), 400, store,
                    "b/binlog/", 1, n -> { });
            ByteArrayOutputStream back = new ByteArrayOutputStream();
            StreamParts.restore(store, cut, back);
            assertThat(back.size()).isEqualTo(400);
            List<BackupManifest.Chunk> empty = StreamParts.store(new ByteArrayInputStream(new byte[0]), Long.MAX_VALUE,
                    store, "b/empty/", 1, n -> { });
            assertThat(empty).hasSize(1).first().extracting(BackupManifest.Chunk::bytes).isEqualTo(0L);
        }
    }

    @Test
    void aDamagedPartIsRefusedBeforeAnythingOfItIsWritten() throws IOException {
        try (DirectoryStore store = new DirectoryStore(dir.resolve("loc"))) {
            store.open();
            List<BackupManifest.Chunk> parts = StreamParts.store(new ByteArrayInputStream("mbstream".repeat(100)
                    .getBytes()), Long.MAX_VALUE, store, "b/s/", 0, n -> { });
            Path file = dir.resolve("loc").resolve(parts.get(0).key());
            byte[] bytes = Files.readAllBytes(file);
            bytes[bytes.length - 1] ^= 1;
            Files.write(file, bytes);
            ByteArrayOutputStream back = new ByteArrayOutputStream();
            assertThatThrownBy(() -> StreamParts.restore(store, parts, back)).isInstanceOf(IOException.class)
                    .hasMessageContaining("is damaged");
            assertThat(back.size()).isZero();
        }
    }
}
