package io.cleave.manager.host;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Describes the storage under a directory from /proc/self/mountinfo and /sys: the mount it lives
 * on, then the block device of that mount's device number ({@code /sys/dev/block/MAJ:MIN}; a
 * partition's facts are its disk's, a device-mapper or md device's model its first member's).
 * Whether the directory can be written and takes O_DIRECT is asked of the real filesystem.
 */
public final class SysfsStorage implements StorageProbe {

    private final Path sys;
    private final Path proc;
    private final Function<Path, Optional<String>> directIo;

    /**
     * @param directIo why a directory refuses O_DIRECT, empty when it takes it ({@link DirectIoCheck#probe} on a real host)
     */
    public SysfsStorage(Path sys, Path proc, Function<Path, Optional<String>> directIo) {
        this.sys = sys;
        this.proc = proc;
        this.directIo = directIo;
    }

    public static SysfsStorage local() {
        return new SysfsStorage(Path.of("/sys"), Path.of("/proc"), DirectIoCheck::probe);
    }

    @Override
    public Storage describe(Path dir) {
        Path absolute = dir.toAbsolutePath().normalize();
        Path existing = existingAncestor(absolute);
        Path resolved = realPath(existing).resolve(existing.relativize(absolute));
        MountTable mounts = MountTable.parse(SysfsHost.lines(proc.resolve("self/mountinfo")));
        Mount mount = mounts.mountOf(resolved).orElse(new Mount(Path.of("/"), "0:0", "unknown", "unknown", false));
        Optional<String> notWritable = notWritable(absolute, existing, mount);
        Optional<String> refused = notWritable.isPresent() ? Optional.empty() : directIo.apply(existing);
        return new Storage(absolute, mount, blockDevice(mount), notWritable, refused);
    }

    private static Optional<String> notWritable(Path dir, Path existing, Mount mount) {
        if (mount.readOnly()) {
            return Optional.of("the filesystem mounted at " + mount.mountPoint() + " is read-only");
        }
        if (!Files.isDirectory(existing)) {
            return Optional.of(existing + " is a file, not a directory");
        }
        if (!Files.isWritable(existing)) {
            return Optional.of(existing + (existing.equals(dir) ? "" : " (where " + dir + " would be made)")
                    + " is not writable by user " + System.getProperty("user.name"));
        }
        return Optional.empty();
    }

    private Optional<BlockDevice> blockDevice(Mount mount) {
        Path link = sys.resolve("dev/block").resolve(mount.majorMinor());
        if (!Files.exists(link) && mount.source().startsWith("/dev/")) {
            // btrfs and some others report an anonymous device number; their source names the device.
            link = sys.resolve("class/block").resolve(realPath(Path.of(mount.source())).getFileName().toString());
        }
        return Files.exists(link) ? Optional.of(describeDisk(diskOf(realPath(link)))) : Optional.empty();
    }

    private BlockDevice describeDisk(Path disk) {
        Path queue = disk.resolve("queue");
        String name = disk.getFileName().toString();
        boolean rotational = SysfsHost.read(queue.resolve("rotational")).map("1"::equals).orElse(false);
        int depth = SysfsHost.read(disk.resolve("device/queue_depth")).or(() -> SysfsHost.read(queue.resolve("nr_requests")))
                .map(Integer::parseInt).orElse(0);
        int logical = SysfsHost.read(queue.resolve("logical_block_size")).map(Integer::parseInt).orElse(512);
        int physical = SysfsHost.read(queue.resolve("physical_block_size")).map(Integer::parseInt).orElse(logical);
        long atomic = SysfsHost.read(queue.resolve("atomic_write_unit_max_bytes")).map(Long::parseLong).orElse(0L);
        Path leaf = leafOf(disk);
        Optional<String> model = SysfsHost.read(leaf.resolve("device/model"))
                .or(() -> SysfsHost.read(disk.resolve("dm/name")).map(n -> "device-mapper " + n));
        return new BlockDevice(name, leaf.getFileName().toString(), rotational, depth, logical, physical, model, atomic);
    }

    /** The first member at the bottom of a device-mapper/md stack; the disk itself when it has none. */
    private Path leafOf(Path disk) {
        Path current = disk;
        for (int depth = 0; depth < 8; depth++) {
            Path slaves = current.resolve("slaves");
            if (!Files.isDirectory(slaves)) {
                break;
            }
            try (Stream<Path> members = Files.list(slaves)) {
                Optional<Path> first = members.sorted().findFirst();
                if (first.isEmpty()) {
                    break;
                }
                current = diskOf(realPath(first.get()));
            } catch (IOException e) {
                break;
            }
        }
        return current;
    }

    /** A partition's directory sits inside its disk's. */
    private static Path diskOf(Path device) {
        return Files.exists(device.resolve("partition")) && device.getParent() != null ? device.getParent() : device;
    }

    private static Path existingAncestor(Path path) {
        Path p = path;
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        return p == null ? Path.of("/") : p;
    }

    private static Path realPath(Path p) {
        try {
            return p.toRealPath();
        } catch (IOException e) {
            return p;
        }
    }
}
