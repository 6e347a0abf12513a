package io.cleave.manager.instance;

import java.nio.file.Path;
import java.util.Optional;

/** What planning needs to know about the filesystems holding datadirs. */
public interface StorageProbe {

    /** An id shared by all paths on one device, so io capacity can be split among its instances. */
    String deviceOf(Path path);

    /** Empty when files under {@code dir} can be opened with O_DIRECT, else the reason they cannot. */
    Optional<String> directIoUnsupported(Path dir);
}
