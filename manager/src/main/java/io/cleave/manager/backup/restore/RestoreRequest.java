package io.cleave.manager.backup.restore;

import java.nio.file.Path;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * What {@code cleave restore} was asked: from where, to which point (a backup's own cut, the last
 * recorded cut at or before a time, or a recorded cut by id; none of them: the newest point), into
 * which new home, with how many shards (empty: as many as the backup had).
 */
public record RestoreRequest(String location, String backupId, OptionalLong toMillis, OptionalLong toCut, Path home,
                             OptionalInt shards) {
}
