package io.cleave.manager.cli;

import io.cleave.manager.config.BackupConfig;
import io.cleave.manager.config.ConfigLoader;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

/**
 * How commands that read a backup location without the daemon reach it: an S3-compatible server's
 * endpoint and region from the options, else from the config file's backup section when there is one.
 */
public final class LocationOptions {

    @Option(names = "--s3-endpoint", paramLabel = "URL", description = "An S3-compatible server (path-style), e.g."
            + " http://127.0.0.1:9000; default: backup.s3.endpoint of the config, else AWS")
    String endpoint;

    @Option(names = "--s3-region", paramLabel = "REGION", description = "Default: backup.s3.region of the config, else us-east-1")
    String region;

    /** The backup settings: the config file's (when {@code config} names one that exists) with these options over them. */
    BackupConfig settings(Path config) {
        BackupConfig base = config != null && Files.isRegularFile(config) ? ConfigLoader.load(config).backup() : BackupConfig.NONE;
        return new BackupConfig(base.location(), base.archiveBinlogs(), base.cutInterval(), base.maxSnapshot(),
                endpoint != null ? Optional.of(endpoint) : base.s3Endpoint(), region != null ? region : base.s3Region(), base.engine(),
                base.maxRateMbS());
    }
}
