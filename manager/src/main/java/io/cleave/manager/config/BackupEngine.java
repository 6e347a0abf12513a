package io.cleave.manager.config;

import java.util.Locale;

/**
 * How a backup copies the shards: {@code logical} reads every row at the cut (any server);
 * {@code physical} copies each shard's files with mariadb-backup and rolls them forward to the cut
 * (MariaDB shards with a mariadb-backup of their version); {@code auto} is physical where it can run,
 * else logical.
 */
public enum BackupEngine {
    AUTO, PHYSICAL, LOGICAL;

    /** {@code auto}, {@code physical} or {@code logical}, any case; null when the text names none. */
    public static BackupEngine parse(String text) {
        if (text == null) {
            return null;
        }
        for (BackupEngine e : values()) {
            if (e.name().equalsIgnoreCase(text.trim())) {
                return e;
            }
        }
        return null;
    }

    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }
}
