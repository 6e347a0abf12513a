package io.cleave.manager.host;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A fake /sys and /proc under a temp directory, laid out as Linux lays them out (symlinks from
 * /sys/dev/block into the device tree, partitions inside their disk), with directories standing in
 * for mount points, so the real probes read it.
 */
public final class FakeHostTree {

    private final Path root;
    private final Path sys;
    private final Path proc;
    private final List<String> mountinfo = new ArrayList<>();
    private int mountId = 20;

    public FakeHostTree(Path root) {
        this.root = root;
        this.sys = root.resolve("sys");
        this.proc = root.resolve("proc");
        write(proc.resolve("meminfo"), "MemTotal:       65849132 kB\nMemFree:         1000 kB\n");
        mountinfo.add("19 1 254:0 / / rw,relatime - ext4 /dev/vda rw");
        flushMountinfo();
    }

    public Path sys() {
        return sys;
    }

    public Path proc() {
        return proc;
    }

    /** A directory standing in for a mount point (created), e.g. {@code mnt/nvme0}. */
    public Path dir(String relative) {
        Path p = root.resolve(relative);
        createDirectories(p);
        return p;
    }

    public FakeHostTree memory(long kib) {
        write(proc.resolve("meminfo"), "MemTotal:       " + kib + " kB\n");
        return this;
    }

    /** Online CPUs with hyperthread pairs (cpu i and i + n/2 share a core when {@code smt}). */
    public FakeHostTree cpus(int n, boolean smt) {
        write(sys.resolve("devices/system/cpu/online"), "0-" + (n - 1) + "\n");
        for (int c = 0; c < n; c++) {
            String siblings = smt ? c % (n / 2) + "," + (c % (n / 2) + n / 2) : String.valueOf(c);
            write(sys.resolve("devices/system/cpu/cpu" + c + "/topology/thread_siblings_list"), siblings + "\n");
        }
        return this;
    }

    public FakeHostTree node(int id, String cpulist, long memKib) {
        Path node = sys.resolve("devices/system/node/node" + id);
        write(node.resolve("cpulist"), cpulist + "\n");
        write(node.resolve("meminfo"), "Node " + id + " MemTotal:       " + memKib + " kB\nNode " + id + " MemFree: 1 kB\n");
        return this;
    }

    /**
     * A disk in the device tree, linked from /sys/block and /sys/dev/block.
     *
     * @param model null for a device without one (virtio)
     */
    public FakeHostTree disk(String name, String majorMinor, boolean rotational, int nrRequests, Integer scsiQueueDepth,
                             int logical, int physical, String model, long atomicWriteBytes) {
        Path device = sys.resolve("devices/pci0000:00/" + name + "/block/" + name);
        write(device.resolve("queue/rotational"), rotational ? "1\n" : "0\n");
        write(device.resolve("queue/nr_requests"), nrRequests + "\n");
        write(device.resolve("queue/logical_block_size"), logical + "\n");
        write(device.resolve("queue/physical_block_size"), physical + "\n");
        write(device.resolve("queue/atomic_write_unit_max_bytes"), atomicWriteBytes + "\n");
        if (scsiQueueDepth != null) {
            write(device.resolve("device/queue_depth"), scsiQueueDepth + "\n");
        }
        if (model != null) {
            write(device.resolve("device/model"), model + "\n");
        }
        link(sys.resolve("block/" + name), device);
        link(sys.resolve("class/block/" + name), device);
        link(sys.resolve("dev/block/" + majorMinor), device);
        return this;
    }

    public FakeHostTree partition(String disk, String name, String majorMinor) {
        Path device = sys.resolve("devices/pci0000:00/" + disk + "/block/" + disk + "/" + name);
        write(device.resolve("partition"), "1\n");
        link(sys.resolve("class/block/" + name), device);
        link(sys.resolve("dev/block/" + majorMinor), device);
        return this;
    }

    /** A device-mapper device over {@code member} (a disk or partition name). */
    public FakeHostTree deviceMapper(String name, String majorMinor, String dmName, String member, boolean rotational) {
        Path device = sys.resolve("devices/virtual/block/" + name);
        write(device.resolve("queue/rotational"), rotational ? "1\n" : "0\n");
        write(device.resolve("queue/nr_requests"), "128\n");
        write(device.resolve("queue/logical_block_size"), "512\n");
        write(device.resolve("queue/physical_block_size"), "4096\n");
        write(device.resolve("dm/name"), dmName + "\n");
        try {
            link(device.resolve("slaves/" + member), sys.resolve("class/block/" + member).toRealPath());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        link(sys.resolve("block/" + name), device);
        link(sys.resolve("class/block/" + name), device);
        link(sys.resolve("dev/block/" + majorMinor), device);
        return this;
    }

    /** Mounts {@code fsType} from {@code source} (device {@code majorMinor}) at the directory {@code relative}. */
    public Path mount(String relative, String majorMinor, String fsType, String source, boolean readOnly) {
        Path point = dir(relative);
        mountinfo.add((mountId++) + " 19 " + majorMinor + " / " + point.toString().replace(" ", "\\040") + " "
                + (readOnly ? "ro" : "rw") + ",relatime shared:1 - " + fsType + " " + source + " rw");
        flushMountinfo();
        return point;
    }

    public FakeHostTree allowedCpus(String list) {
        write(proc.resolve("self/status"), "Name:\tjava\nCpus_allowed_list:\t" + list + "\n");
        return this;
    }

    private void flushMountinfo() {
        write(proc.resolve("self/mountinfo"), String.join("\n", mountinfo) + "\n");
    }

    private static void write(Path file, String text) {
        try {
            Files.createDirectories(file.getParent());
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void createDirectories(Path p) {
        try {
            Files.createDirectories(p);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void link(Path link, Path target) {
        try {
            Files.createDirectories(link.getParent());
            Files.deleteIfExists(link);
            Files.createSymbolicLink(link, target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
