package io.cleave.manager.config;

import java.nio.file.Path;

/**
 * The {@code standby} section of a standby's config: what {@code cleave standby --config FILE} seeds the
 * home from, in place of its options (the home's own addresses are the config's server.base_port,
 * admin.port and proxy.listen).
 *
 * @param primary          the primary daemon's admin URL
 * @param primaryTokenFile a copy of the primary's state/admin-token (relative to the config's directory)
 * @param via              where the seeding backup goes: a directory or s3://BUCKET/PREFIX both hosts reach
 */
public record StandbySource(String primary, Path primaryTokenFile, String via) {
}
