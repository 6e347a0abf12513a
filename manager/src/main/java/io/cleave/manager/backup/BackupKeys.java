package io.cleave.manager.backup;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/**
 * Where things live in a backup location:
 * <pre>
 * backups/ID/started.json              written first: the backup exists, not yet complete
 * backups/ID/data/DB/TABLE/sS-N.zst    chunk N of TABLE's rows read on shard S
 * backups/ID/manifest.json             written last: the backup is complete
 * binlogs/shard-S/FILE/OFFSET.seg      archived binlog bytes of shard S's FILE from OFFSET on
 * cuts/ID.json                         a recorded cut (a restore point) while binlogs are archived
 * </pre>
 */
final class BackupKeys {

    static final String BACKUPS = "backups/";
    static final String MANIFEST = "manifest.json";
    static final String STARTED = "started.json";
    private static final DateTimeFormatter ID = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss-SSS").withZone(ZoneOffset.UTC);

    private BackupKeys() {
    }

    /** A backup's id: when it started, in UTC, to the millisecond, so ids sort as backups were taken. */
    static String newId(Instant now) {
        return ID.format(now);
    }

    static String backup(String id) {
        return BACKUPS + id + "/";
    }

    static String manifest(String id) {
        return backup(id) + MANIFEST;
    }

    static String started(String id) {
        return backup(id) + STARTED;
    }

    static String chunk(String id, String schema, String table, int shard, int sequence) {
        return backup(id) + "data/" + name(schema) + "/" + name(table) + "/s" + shard + "-" + String.format("%06d", sequence)
                + ".zst";
    }

    /** Where the parts of a physical copy's stream of {@code shard} go (a prefix). */
    static String copyStream(String id, int shard) {
        return backup(id) + "physical/shard-" + shard + "/stream/";
    }

    /** Where the parts of {@code shard}'s binlog file {@code file} kept with a physical copy go (a prefix). */
    static String copyBinlog(String id, int shard, String file) {
        return backup(id) + "physical/shard-" + shard + "/binlog/" + name(file) + "/";
    }

    /** A name made safe as one path segment of a key. */
    private static String name(String s) {
        return URLEncoder.encode(s, StandardCharsets.UTF_8).replace("*", "%2A").replace(".", "%2E");
    }

    /** The id of the backup a key is under, or null. */
    static String idOf(String key) {
        if (!key.startsWith(BACKUPS)) {
            return null;
        }
        int slash = key.indexOf('/', BACKUPS.length());
        return slash < 0 ? null : key.substring(BACKUPS.length(), slash);
    }
}
