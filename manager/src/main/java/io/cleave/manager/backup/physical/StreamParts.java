package io.cleave.manager.backup.physical;

import com.github.luben.zstd.Zstd;
import io.cleave.manager.backup.BackupManifest;
import io.cleave.manager.backup.ChunkCodec;
import io.cleave.manager.backup.store.BackupStore;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.function.LongConsumer;

/**
 * A byte stream (a shard's mbstream, a binlog file) stored as numbered parts: each part a block of
 * the stream compressed on its own with zstd, with its SHA-256 as stored in the manifest, so a stream
 * of any size is stored as whole objects of bounded size, and a restore checks each part before use.
 */
public final class StreamParts {

    static final int PART = 16 << 20;
    private static final int LEVEL = 3;

    private StreamParts() {
    }

    /**
     * Reads {@code in} to its end (at most {@code limit} bytes) and stores it as parts {@code prefix}part-00000, -00001, ...;
     * {@code stored} receives each part's stored size as it lands.
     */
    public static List<BackupManifest.Chunk> store(InputStream in, long limit, BackupStore store, String prefix, int shard,
                                                   LongConsumer stored) throws IOException {
        List<BackupManifest.Chunk> parts = new ArrayList<>();
        long left = limit;
        while (true) {
            byte[] raw = in.readNBytes((int) Math.min(PART, left));
            left -= raw.length;
            if (raw.length == 0 && !parts.isEmpty()) {
                return parts;
            }
            byte[] packed = Zstd.compress(raw, LEVEL);
            String key = prefix + String.format("part-%05d", parts.size());
            store.put(key, packed);
            stored.accept(packed.length);
            parts.add(new BackupManifest.Chunk(key, shard, 0, raw.length, packed.length, ChunkCodec.sha256(packed)));
            if (raw.length < PART || left == 0) {
                return parts;
            }
        }
    }

    /** Writes the stream the parts hold to {@code out}, each part checked against its checksum first. */
    public static long restore(BackupStore store, List<BackupManifest.Chunk> parts, OutputStream out) throws IOException {
        long written = 0;
        for (BackupManifest.Chunk part : parts) {
            byte[] packed = store.get(part.key());
            if (!ChunkCodec.sha256(packed).equals(part.sha256())) {
                throw new IOException(part.key() + " is damaged: its SHA-256 differs from the manifest's");
            }
            byte[] raw = Zstd.decompress(packed, (int) part.bytes());
            if (raw.length != part.bytes()) {
                throw new IOException(part.key() + " holds " + raw.length + " bytes, the manifest says " + part.bytes());
            }
            out.write(raw);
            written += raw.length;
        }
        return written;
    }
}
