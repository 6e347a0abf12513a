package io.cleave.manager.host;

import java.util.Optional;

/**
 * A whole block device as /sys/block describes it (a partition's facts are its disk's).
 *
 * @param name              the kernel's name, e.g. {@code nvme0n1}, {@code sda}, {@code dm-0}
 * @param underlying        the device at the bottom of a device-mapper or md stack ({@code name} otherwise)
 * @param queueDepth        the device's queue depth (SCSI/SATA), else the block layer's request queue size
 * @param atomicWriteBytes  the largest write the device promises to make atomically, 0 when it promises none
 */
public record BlockDevice(String name, String underlying, boolean rotational, int queueDepth, int logicalSectorBytes,
                          int physicalSectorBytes, Optional<String> model, long atomicWriteBytes) {

    public DeviceClass deviceClass() {
        if (rotational) {
            return DeviceClass.ROTATIONAL;
        }
        return underlying.startsWith("nvme") || name.startsWith("nvme") ? DeviceClass.NVME : DeviceClass.SSD;
    }

    /** e.g. {@code nvme0n1: NVMe flash, queue depth 1023, sectors 512/4096 B, Samsung PM9A3}. */
    public String describe() {
        return name + (underlying.equals(name) ? "" : " (on " + underlying + ")") + ": " + deviceClass().description()
                + (rotational ? "" : ", non-rotational") + ", queue depth " + queueDepth + ", sectors "
                + logicalSectorBytes + "/" + physicalSectorBytes + " B" + model.map(m -> ", " + m).orElse("");
    }
}
