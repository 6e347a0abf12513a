package io.cleave.manager.backup.store;

import io.cleave.manager.config.BackupConfig;

import java.nio.file.Path;

/** Opens the store a location names: {@code s3://BUCKET/PREFIX}, else a directory. */
public final class BackupStores {

    private BackupStores() {
    }

    public static BackupStore of(String location, BackupConfig config) {
        if (location.startsWith("s3://")) {
            if (!location.matches("s3://[^/]+(/.*)?")) {
                throw new IllegalArgumentException("'" + location + "' names no bucket: expected s3://BUCKET/PREFIX");
            }
            return new S3Store(location, config.s3Endpoint(), config.s3Region());
        }
        return new DirectoryStore(Path.of(location));
    }
}
