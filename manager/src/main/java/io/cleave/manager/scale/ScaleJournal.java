package io.cleave.manager.scale;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.manager.home.DurableFiles;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** The last scale in {@code state/scale.json}, replaced durably at every phase. */
final class ScaleJournal {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final Path file;

    ScaleJournal(Path stateDir) {
        this.file = stateDir.resolve("scale.json");
    }

    synchronized Optional<ScaleRecord> load() {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), ScaleRecord.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    synchronized void save(ScaleRecord r) {
        try {
            DurableFiles.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(r));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
