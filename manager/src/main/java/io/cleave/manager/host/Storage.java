package io.cleave.manager.host;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What holds a directory: its filesystem, the block device under it, and whether a server can
 * use it.
 *
 * @param device          the block device, when the filesystem has one that /sys describes
 * @param notWritable     why the directory cannot be made or written, when it cannot
 * @param directIoRefused why files there cannot be opened with O_DIRECT, when they cannot
 */
public record Storage(Path dir, Mount mount, Optional<BlockDevice> device, Optional<String> notWritable,
                      Optional<String> directIoRefused) {

    /** Instances on one device share its I/O: this names the device (or the filesystem when there is none). */
    public String deviceName() {
        return device.map(BlockDevice::name).orElse(mount.source() + " (" + mount.fsType() + ")");
    }

    public DeviceClass deviceClass() {
        return device.map(BlockDevice::deviceClass).orElse(DeviceClass.UNKNOWN);
    }

    /** e.g. {@code ext4 on nvme0n1: NVMe flash, ...}. */
    public String describe() {
        return mount.fsType() + " at " + mount.mountPoint() + " on "
                + device.map(BlockDevice::describe).orElse(mount.source() + ": no block device found under it");
    }
}
