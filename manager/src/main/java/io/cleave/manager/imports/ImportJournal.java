package io.cleave.manager.imports;

import io.cleave.manager.home.JsonFile;
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

    private final JsonFile<ImportRecord> record;
    private final Path secret;

    ImportJournal(Path stateDir) {
        this.record = new JsonFile<>(stateDir.resolve("import.json"), ImportRecord.class);
        this.secret = stateDir.resolve("import-source");
    }

    Optional<ImportRecord> load() {
        return record.load();
    }

    void save(ImportRecord r) {
        record.save(r);
    }

    /** Puts back {@code previous} (null: no import has run). */
    void restore(ImportRecord previous) {
        if (previous == null) {
            record.delete();
        } else {
            record.save(previous);
        }
    }

    ImportRecord copy(ImportRecord r) {
        return record.copy(r);
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
