package io.cleave.manager.move;

import io.cleave.manager.home.DurableFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * Moves in the state directory, one file each ({@code state/moves/move-N.json}), replaced
 * durably at every step: a daemon that dies at any point finds each move where it was.
 */
public final class MoveJournal {

    private final Path dir;

    public MoveJournal(Path stateDir) {
        this.dir = stateDir.resolve("moves");
    }

    public synchronized void save(MoveRecord record) {
        try {
            Files.createDirectories(dir);
            DurableFiles.write(file(record.id), MoveJson.JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(record));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot journal move " + record.id + " in " + dir + ": " + e.getMessage(), e);
        }
    }

    /** Every journaled move, oldest first. */
    public synchronized List<MoveRecord> loadAll() {
        List<MoveRecord> out = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            return out;
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(p -> p.getFileName().toString().matches("move-\\d+\\.json")).toList()) {
                out.add(MoveJson.JSON.readValue(f.toFile(), MoveRecord.class));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read the move journal in " + dir + ": " + e.getMessage(), e);
        }
        out.sort(Comparator.comparingLong(r -> r.id));
        return out;
    }

    public synchronized long nextId() {
        long max = 0;
        for (MoveRecord r : loadAll()) {
            max = Math.max(max, r.id);
        }
        return max + 1;
    }

    private Path file(long id) {
        return dir.resolve("move-" + id + ".json");
    }
}
