package io.cleave.manager.backup.restore;

import io.cleave.manager.backup.archive.ArchiveKeys;
import io.cleave.manager.backup.store.BackupStore;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One shard's archived binlog, put back together as files (each from its first byte, its segments
 * joined in order) from the first archived file up to the file a point lies in, and written to a
 * directory where the server's binlog tool reads them.
 */
final class ArchivedBinlogs {

    /** The files, in order, and their names. */
    record Archived(List<String> names, List<byte[]> contents, List<Path> paths) {
        int indexOf(String name) {
            return names.indexOf(name);
        }
    }

    private ArchivedBinlogs() {
    }

    /** The shard's archived files up to {@code lastFile}, which must reach {@code lastPosition}; written under {@code dir}. */
    static Archived upTo(BackupStore store, int shard, String lastFile, long lastPosition, Path dir) throws IOException {
        Map<String, ByteArrayOutputStream> files = new LinkedHashMap<>();
        for (ArchiveKeys.Segment s : ArchiveKeys.segments(store.list(ArchiveKeys.listing(shard)))) {
            if (s.file().compareTo(lastFile) > 0) {
                break;
            }
            ByteArrayOutputStream out = files.computeIfAbsent(s.file(), f -> new ByteArrayOutputStream());
            if (s.offset() != out.size()) {
                throw new IOException("shard " + shard + "'s archived binlog " + s.file() + " has a gap at " + out.size()
                        + " (next segment from " + s.offset() + ")");
            }
            out.writeBytes(store.get(s.key()));
        }
        ByteArrayOutputStream last = files.get(lastFile);
        if (last == null || last.size() < lastPosition) {
            throw new IOException("shard " + shard + "'s archive does not reach " + lastFile + ":" + lastPosition);
        }
        Files.createDirectories(dir);
        List<String> names = new ArrayList<>(files.keySet());
        List<byte[]> contents = new ArrayList<>();
        List<Path> paths = new ArrayList<>();
        for (String name : names) {
            byte[] bytes = files.get(name).toByteArray();
            Path p = dir.resolve(name);
            Files.write(p, bytes);
            contents.add(bytes);
            paths.add(p);
        }
        return new Archived(names, contents, paths);
    }
}
