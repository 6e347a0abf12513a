package io.cleave.manager.host;

import java.nio.file.Path;

/** Finds out what holds a directory (which may not exist yet: then where it would be made). */
public interface StorageProbe {

    Storage describe(Path dir);
}
