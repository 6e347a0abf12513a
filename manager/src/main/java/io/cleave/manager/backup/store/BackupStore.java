package io.cleave.manager.backup.store;

import java.io.IOException;
import java.util.List;

/**
 * Where backups, archived binlogs and recorded cuts are kept: a directory or an S3 bucket. Objects
 * are named by slash-separated keys and written whole: a reader sees an object complete or not at
 * all, never part of one, which is what lets a manifest written last mark a backup complete.
 */
public interface BackupStore extends AutoCloseable {

    /** The location as the operator named it ({@code /backups/db1}, {@code s3://bucket/prefix}). */
    String describe();

    /**
     * Checks that the location is there and can be written: a directory is created when its parent
     * exists (a typo is not silently made into a tree); a bucket must exist.
     */
    void open() throws IOException;

    /** Writes {@code content} under {@code key}, replacing what was there, visible only once complete. */
    void put(String key, byte[] content) throws IOException;

    /** The object under {@code key}; {@link java.nio.file.NoSuchFileException} when there is none. */
    byte[] get(String key) throws IOException;

    /** Keys under {@code prefix} (a "directory" ending in '/', or any key prefix), sorted. */
    List<String> list(String prefix) throws IOException;

    /** Deletes every object under {@code prefix}. */
    void deleteAll(String prefix) throws IOException;

    @Override
    void close();
}
