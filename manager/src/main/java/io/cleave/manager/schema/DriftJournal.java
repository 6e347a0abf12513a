package io.cleave.manager.schema;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.manager.home.DurableFiles;
import io.cleave.proxy.server.SchemaDriftLog;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * Structure changes some shards applied and others refused, which the proxy could not undo:
 * {@code state/schema-drift.json}, replaced durably at every change. {@code cleave repair} runs
 * each again on the shards that lack it and forgets it once they all have it.
 */
public final class DriftJournal implements SchemaDriftLog {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final TypeReference<List<UnfinishedChange>> LIST = new TypeReference<>() {
    };

    private final Path file;

    public DriftJournal(Path stateDir) {
        this.file = stateDir.resolve("schema-drift.json");
    }

    @Override
    public synchronized void record(UnfinishedChange change) {
        List<UnfinishedChange> all = new ArrayList<>(load());
        all.add(change);
        save(all);
    }

    /** The recorded changes, oldest first. */
    public synchronized List<UnfinishedChange> load() {
        if (!Files.isRegularFile(file)) {
            return List.of();
        }
        try {
            return JSON.readValue(file.toFile(), LIST);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + file + ": " + e.getMessage(), e);
        }
    }

    /** Replaces the record with {@code changes} (what repair could not complete). */
    public synchronized void save(List<UnfinishedChange> changes) {
        try {
            DurableFiles.write(file, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(changes));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + file + ": " + e.getMessage(), e);
        }
    }
}
