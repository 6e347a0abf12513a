package io.cleave.manager.instance;

import io.cleave.manager.config.ByteSize;
import io.cleave.manager.host.BlockDevice;
import io.cleave.manager.host.DeviceClass;
import io.cleave.manager.host.Storage;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The flash tuning of one instance, after the seeds' list (Percona's multi-instance TPC-C runs on
 * Fusion-io) adapted to current servers: its share of memory, I/O threads from its CPUs, flushing
 * from the device under its datadir, a redo log sized from its buffer pool and write rate, utf8mb4.
 */
final class TuningChoices {

    static final long GIB = 1L << 30;
    static final long MIB = 1L << 20;
    /** The servers' own default redo size: a smaller log would force flushing at every checkpoint. */
    static final long MIN_REDO = 96 * MIB;
    /** The largest innodb_redo_log_capacity MySQL accepts. */
    static final long MAX_REDO = 128 * GIB;
    static final int MIN_IO_CAPACITY = 100;
    private static final int MAX_POOL_INSTANCES = 8;
    /** MariaDB raises fewer write I/O threads to this ("unsigned value 1 adjusted to 2"). */
    private static final int MARIADB_MIN_WRITE_THREADS = 2;
    private static final int PAGE_SIZE = 16 * 1024;
    private static final ServerVersion MYSQL_REDO_CAPACITY = new ServerVersion(8, 0, 30);

    private final InstancePlan p;
    private final PlanContext c;
    private final List<Choice> out = new ArrayList<>();

    private TuningChoices(InstancePlan p, PlanContext c) {
        this.p = p;
        this.c = c;
    }

    static List<Choice> of(InstancePlan p, PlanContext c) {
        TuningChoices t = new TuningChoices(p, c);
        t.memory();
        t.threads();
        t.flash();
        t.redo();
        t.charset();
        return t.out;
    }

    private void memory() {
        SettingGroup g = SettingGroup.MEMORY;
        int n = p.shardCount();
        out.add(Choice.of(g, "innodb_buffer_pool_size", ByteSize.format(p.bufferPoolBytes()), n == 1 ? "buffer_pool in the config"
                : "1/" + n + " of buffer_pool " + ByteSize.format(c.config().bufferPoolBytes()) + ": each shard caches its own share"));
        if (c.mariadb() && c.version().atLeast(10, 6)) {
            out.add(Choice.missing(g, "innodb_buffer_pool_instances", "MariaDB 10.6 and later have one buffer pool and no such option"));
        } else {
            long instances = Math.max(1, Math.min(MAX_POOL_INSTANCES, p.bufferPoolBytes() / GIB));
            out.add(Choice.of(g, "innodb_buffer_pool_instances", instances,
                    "one per GiB of its buffer pool, at most " + MAX_POOL_INSTANCES + ": fewer threads wait on each pool's mutex"));
        }
    }

    private void threads() {
        int cores = p.cpu().cores();
        int threads = Math.max(1, Math.min(64, (cores + 1) / 2));
        String why = cores == 1 ? "it has 1 CPU's worth of time: one thread (asynchronous I/O keeps many requests in flight per thread)"
                : "half of its " + cores + " CPUs: reads and writes together get one I/O thread per CPU";
        out.add(Choice.of(SettingGroup.THREADS, "innodb_read_io_threads", threads, why));
        if (c.mariadb() && threads < MARIADB_MIN_WRITE_THREADS) {
            out.add(Choice.of(SettingGroup.THREADS, "innodb_write_io_threads", MARIADB_MIN_WRITE_THREADS,
                    why + "; raised to MariaDB's minimum of " + MARIADB_MIN_WRITE_THREADS + " write threads"));
        } else {
            out.add(Choice.of(SettingGroup.THREADS, "innodb_write_io_threads", threads, why));
        }
    }

    private void flash() {
        SettingGroup g = SettingGroup.FLASH;
        Storage data = p.dataStorage();
        String device = data.deviceName();
        DeviceClass kind = data.deviceClass();
        out.add(data.directIoRefused().isEmpty()
                ? Choice.of(g, "innodb_flush_method", "O_DIRECT", "the buffer pool caches pages; O_DIRECT keeps the OS from caching them twice")
                : Choice.of(g, "innodb_flush_method", "fsync", "O_DIRECT unavailable: " + data.directIoRefused().get()));

        int sharing = c.dataSharing().getOrDefault(device, 1);
        String shared = sharing == 1 ? "its own" : sharing + " shards share it";
        int deviceCapacity = c.config().ioCapacity().orElse(kind.ioCapacity());
        int deviceMax = c.config().ioCapacity().isPresent() ? deviceCapacity * 2 : kind.ioCapacityMax();
        int capacity = Math.max(MIN_IO_CAPACITY, deviceCapacity / sharing);
        int max = Math.max(capacity, deviceMax / sharing);
        String source = c.config().ioCapacity().isPresent() ? "io_capacity " + deviceCapacity + " per device in the config"
                : kind.description() + " takes about " + deviceCapacity;
        out.add(Choice.of(g, "innodb_io_capacity", capacity, "device " + device + " (" + kind.description() + ", " + shared + "): "
                + source + (sharing > 1 ? ", / " + sharing : "") + (capacity == MIN_IO_CAPACITY && deviceCapacity / sharing < capacity
                ? ", raised to the server's minimum " + MIN_IO_CAPACITY : "")));
        out.add(Choice.of(g, "innodb_io_capacity_max", max, "device " + device + ": bursts up to "
                + (c.config().ioCapacity().isPresent() ? "twice io_capacity" : String.valueOf(deviceMax))
                + (sharing > 1 ? " / " + sharing : "") + " when flushing falls behind"));

        if (kind.isFlash()) {
            out.add(Choice.of(g, "innodb_flush_neighbors", 0, device + " is non-rotational: flushing a page's neighbours saves no seek, only adds writes"));
            out.add(Choice.of(g, "innodb_read_ahead_threshold", 0, device + " is flash: random reads cost what sequential ones do,"
                    + " so linear read-ahead (0 turns it off) would only read extents nobody asked for"));
        } else {
            String what = kind == DeviceClass.ROTATIONAL ? device + " is rotational" : "no block device found under " + data.dir();
            out.add(Choice.of(g, "innodb_flush_neighbors", 1, what + ": flushing neighbouring pages together saves seeks"));
            out.add(Choice.of(g, "innodb_read_ahead_threshold", 56, what + ": reading ahead of sequential scans saves seeks"));
        }
        out.add(Choice.of(g, "innodb_random_read_ahead", "OFF", "random read-ahead reads whole extents for a few pages"));
        out.add(Choice.of(g, "innodb_adaptive_flushing", "ON",
                "flushes at the rate redo is written, so checkpoints never stall writes (the seeds set it explicitly)"));
        out.add(Choice.of(g, "innodb_doublewrite", "ON", doublewriteReason(data)));
        if (c.mariadb()) {
            out.add(Choice.of(g, "innodb_use_atomic_writes", "ON", "MariaDB skips the doublewrite buffer by itself for files on"
                    + " devices it knows write pages atomically (ScaleFlux, Shannon, Fusion-io)"));
        }
    }

    /**
     * The doublewrite buffer repairs a page torn by a crash. It can go only where every page write
     * is atomic: MariaDB knows some devices and skips it for their files itself; no server issues
     * the kernel's atomic writes (RWF_ATOMIC), so a device's promise alone does not make a server's
     * page write atomic.
     */
    private String doublewriteReason(Storage data) {
        Optional<BlockDevice> device = data.device();
        Optional<String> family = device.flatMap(d -> atomicFamily(d.underlying()));
        if (c.mariadb() && family.isPresent()) {
            return device.get().name() + " is a " + family.get() + " device: MariaDB detects its atomic writes and skips"
                    + " the doublewrite buffer for the tablespaces there itself (innodb_use_atomic_writes); ON covers files elsewhere";
        }
        if (device.isPresent() && device.get().atomicWriteBytes() >= PAGE_SIZE) {
            return device.get().name() + " promises atomic writes up to " + device.get().atomicWriteBytes() + " B, but "
                    + c.server() + " does not ask for them (no RWF_ATOMIC): a crash can still tear a page, so it stays on";
        }
        return device.map(d -> d.name() + " promises no atomic " + PAGE_SIZE / 1024 + "K page writes")
                .orElse("no block device found under " + data.dir()) + ": the doublewrite buffer is what repairs a page a crash tore";
    }

    /** The device families whose atomic writes MariaDB detects (mysys/my_atomic_writes.c). */
    static Optional<String> atomicFamily(String deviceName) {
        if (deviceName.matches("sfdv\\d+n\\d+")) {
            return Optional.of("ScaleFlux");
        }
        if (deviceName.matches("df[a-z]\\d*")) {
            return Optional.of("Shannon");
        }
        if (deviceName.matches("fio[a-z]+\\d*")) {
            return Optional.of("Fusion-io");
        }
        return Optional.empty();
    }

    private void redo() {
        long pool = p.bufferPoolBytes();
        long quarter = pool / 4;
        Optional<Long> hour = c.config().redoWriteRate().map(r -> r / p.shardCount() * 3600);
        long wanted = Math.max(quarter, hour.orElse(0L));
        long redo = roundUpToMib(Math.min(MAX_REDO, Math.max(MIN_REDO, wanted)));
        String basis = hour.isPresent() && hour.get() >= quarter
                ? "an hour of its share of redo_write_rate (" + ByteSize.format(c.config().redoWriteRate().get()) + "/s"
                        + (p.shardCount() > 1 ? " / " + p.shardCount() : "") + " x 3600 s)"
                : "a quarter of its " + ByteSize.format(pool) + " buffer pool";
        String why = wanted < MIN_REDO
                ? "at least " + ByteSize.format(MIN_REDO) + ", the servers' own default (" + basis + " is "
                        + ByteSize.format(roundUpToMib(wanted)) + "): a smaller log forces flushing at every checkpoint"
                : wanted > MAX_REDO ? basis + ", capped at " + ByteSize.format(MAX_REDO) : basis;
        why = why + "; on " + p.logStorage().deviceName() + (hour.isEmpty() ? "; redo_write_rate would size it from the workload"
                : hour.get() < quarter ? "; an hour of its share of redo_write_rate is only " + ByteSize.format(roundUpToMib(hour.get())) : "");
        SettingGroup g = SettingGroup.REDO;
        if (c.mariadb()) {
            out.add(Choice.of(g, "innodb_log_file_size", ByteSize.format(redo), why));
        } else if (c.version().compareTo(MYSQL_REDO_CAPACITY) >= 0) {
            out.add(Choice.of(g, "innodb_redo_log_capacity", ByteSize.format(redo), why));
        } else {
            out.add(Choice.of(g, "innodb_log_file_size", ByteSize.format(redo / 2), why + ", in innodb_log_files_in_group's 2 files"));
        }
    }

    private void charset() {
        out.add(Choice.of(SettingGroup.CHARSET, "character_set_server", "utf8mb4",
                "utf8mb4 holds every Unicode character; a latin1 server (MariaDB's long-time default) loses what it cannot encode"));
    }

    private static long roundUpToMib(long bytes) {
        return (bytes + MIB - 1) / MIB * MIB;
    }
}
