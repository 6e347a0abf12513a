package io.cleave.manager.imports;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.manager.home.DurableFiles;
import io.cleave.manager.home.Secrets;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The import in the state directory: {@code state/import.json} (the record, replaced durably at
 * every phase) and, while the source is attached, {@code state/import-source} (its URL with the
 * password, readable by the owner only, deleted when the source is detached).
 */
final class ImportJournal {

    private static final ObjectMapper JSON = new ObjectMapper()
            .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private final Path record;
    private final Path secret;

    ImportJournal(Path stateDir) {
        this.record = stateDir.resolve("import.json");
        this.secret = stateDir.resolve("import-source");
    }

    synchronized Optional<ImportRecord> load() {
        if (!Files.exists(record)) {
            return Optional.empty();
        }
        try {
            return Optional.of(JSON.readValue(record.toFile(), ImportRecord.class));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + record + ": " + e.getMessage(), e);
        }
    }

    synchronized void save(ImportRecord r) {
        try {
            DurableFiles.write(record, JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(r));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + record + ": " + e.getMessage(), e);
        }
    }

    /** Puts back {@code previous} (null: no import has run). */
    synchronized void restore(ImportRecord previous) {
        try {
            if (previous == null) {
                Files.deleteIfExists(record);
            } else {
                save(previous);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + record + ": " + e.getMessage(), e);
        }
    }

    static ImportRecord copy(ImportRecord r) {
        try {
            return JSON.readValue(JSON.writeValueAsBytes(r), ImportRecord.class);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    void saveSource(SourceUrl url) {
        try {
            Secrets.replacePrivate(secret, url.secretForm() + "\n");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + secret + ": " + e.getMessage(), e);
        }
    }

    /** The attached source with its password, when one is attached. */
    Optional<SourceUrl> source() {
        if (!Files.exists(secret)) {
            return Optional.empty();
        }
        try {
            return Optional.of(SourceUrl.parse(Files.readString(secret, StandardCharsets.UTF_8).trim()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + secret + ": " + e.getMessage(), e);
        }
    }

    void forgetSource() {
        try {
            Files.deleteIfExists(secret);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + secret + ": " + e.getMessage(), e);
        }
    }

    Path secretFile() {
        return secret;
    }
}
