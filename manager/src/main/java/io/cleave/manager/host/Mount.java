package io.cleave.manager.host;

import java.nio.file.Path;

/**
 * One line of /proc/self/mountinfo.
 *
 * @param majorMinor the device number as {@code major:minor}; {@code 0:N} for filesystems with no
 *                   block device of their own (tmpfs, overlay, btrfs subvolumes, NFS)
 */
public record Mount(Path mountPoint, String majorMinor, String fsType, String source, boolean readOnly) {

    /** tmpfs and ramfs keep files in memory: a datadir there is lost at reboot and takes RAM from the buffer pools. */
    public boolean inMemory() {
        return fsType.equals("tmpfs") || fsType.equals("ramfs");
    }
}
