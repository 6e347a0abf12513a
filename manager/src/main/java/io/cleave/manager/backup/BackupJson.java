package io.cleave.manager.backup;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.UncheckedIOException;

/** How backups write and read their JSON (manifests, cut records): unknown fields are skipped, for later formats. */
public final class BackupJson {

    static final ObjectMapper JSON = new ObjectMapper().configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, false);

    private BackupJson() {
    }

    public static byte[] write(Object value) {
        try {
            return JSON.writerWithDefaultPrettyPrinter().writeValueAsBytes(value);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public static <T> T read(byte[] json, Class<T> type) throws IOException {
        return JSON.readValue(json, type);
    }
}
