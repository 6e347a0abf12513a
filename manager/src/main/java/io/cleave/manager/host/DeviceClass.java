package io.cleave.manager.host;

/**
 * What kind of storage a block device is, and the background I/O one device of that kind takes:
 * {@code innodb_io_capacity} is the rate InnoDB flushes at when it is not behind, and
 * {@code innodb_io_capacity_max} the rate it may reach when it is. Instances sharing a device
 * share these figures.
 */
public enum DeviceClass {
    /** NVMe flash: deep queues, tens of thousands of writes per second even under mixed load. */
    NVME("NVMe flash", 10_000, 20_000, true),
    /** SATA/SAS or virtual flash: a few thousand writes per second sustained. */
    SSD("flash", 2_000, 4_000, true),
    /** A spinning disk: about 200 random writes per second per spindle (InnoDB's own default). */
    ROTATIONAL("rotational", 200, 2_000, false),
    /** No block device found (network or virtual filesystem): InnoDB's defaults. */
    UNKNOWN("device unknown", 200, 2_000, false);

    private final String description;
    private final int ioCapacity;
    private final int ioCapacityMax;
    private final boolean flash;

    DeviceClass(String description, int ioCapacity, int ioCapacityMax, boolean flash) {
        this.description = description;
        this.ioCapacity = ioCapacity;
        this.ioCapacityMax = ioCapacityMax;
        this.flash = flash;
    }

    public String description() {
        return description;
    }

    public int ioCapacity() {
        return ioCapacity;
    }

    public int ioCapacityMax() {
        return ioCapacityMax;
    }

    /** Random reads cost about what sequential ones do, and there are no seeks to save. */
    public boolean isFlash() {
        return flash;
    }
}
