package io.cleave.manager.home;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/** One value kept as JSON in the state directory, replaced durably (see {@link DurableFiles}) at every save. */
public final class JsonFile<T> {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final Path file;
    private final Class<T> type;

    public JsonFile(Path file, Class<T> type) {
        this.file = file;
        this.type = type;
    }

    public synchronized Optional<T> load() {
        if (!Files.exists(file)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(file.toFile(), type));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    public synchronized void save(T value) {
        try {
            Files.createDirectories(file.getParent());
            DurableFiles.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(value));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }

    /** Deletes the file (nothing when it does not exist). */
    public synchronized void delete() {
        try {
            Files.deleteIfExists(file);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + file + ": " + e.getMessage(), e);
        }
    }

    /** A deep copy of {@code value}, through its JSON. */
    public T copy(T value) {
        try {
            return JSON.readValue(JSON.writeValueAsBytes(value), type);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
