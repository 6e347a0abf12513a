package io.cleave.manager.host;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

class SysfsStorageTest {

    @TempDir
    Path tmp;

    private SysfsStorage storage(FakeHostTree tree) {
        return new SysfsStorage(tree.sys(), tree.proc(), dir -> Optional.empty());
    }

    @Test
    void nvmePartitionIsDescribedByItsDisk() {
        FakeHostTree tree = new FakeHostTree(tmp)
                .disk("nvme0n1", "259:0", false, 1023, null, 512, 4096, "Samsung PM9A3", 0)
                .partition("nvme0n1", "nvme0n1p1", "259:1");
        Path mnt = tree.mount("mnt/nvme0", "259:1", "xfs", "/dev/nvme0n1p1", false);
        Storage s = storage(tree).describe(mnt.resolve("cleave/shard-0"));
        assertThat(s.mount().fsType()).isEqualTo("xfs");
        assertThat(s.deviceName()).isEqualTo("nvme0n1");
        BlockDevice d = s.device().orElseThrow();
        assertThat(d.rotational()).isFalse();
        assertThat(d.queueDepth()).isEqualTo(1023);
        assertThat(d.logicalSectorBytes()).isEqualTo(512);
        assertThat(d.physicalSectorBytes()).isEqualTo(4096);
        assertThat(d.model()).contains("Samsung PM9A3");
        assertThat(d.deviceClass()).isEqualTo(DeviceClass.NVME);
        assertThat(s.notWritable()).isEmpty();
        assertThat(s.describe()).contains("xfs at " + mnt, "nvme0n1: NVMe flash, non-rotational, queue depth 1023, sectors 512/4096 B, Samsung PM9A3");
    }

    @Test
    void sataSsdTakesTheScsiQueueDepth() {
        FakeHostTree tree = new FakeHostTree(tmp).disk("sda", "8:0", false, 64, 32, 512, 512, "INTEL SSDSC2KB96", 0);
        Path mnt = tree.mount("mnt/ssd", "8:0", "ext4", "/dev/sda", false);
        BlockDevice d = storage(tree).describe(mnt).device().orElseThrow();
        assertThat(d.queueDepth()).isEqualTo(32);
        assertThat(d.deviceClass()).isEqualTo(DeviceClass.SSD);
    }

    @Test
    void rotationalDiskAndItsClass() {
        FakeHostTree tree = new FakeHostTree(tmp).disk("sdb", "8:16", true, 64, 32, 512, 4096, "ST4000NM0035", 0);
        Path mnt = tree.mount("mnt/hdd", "8:16", "ext4", "/dev/sdb", false);
        Storage s = storage(tree).describe(mnt);
        assertThat(s.deviceClass()).isEqualTo(DeviceClass.ROTATIONAL);
        assertThat(s.deviceClass().isFlash()).isFalse();
    }

    @Test
    void deviceMapperOverNvmeIsNvmeWithTheMembersModel() {
        FakeHostTree tree = new FakeHostTree(tmp)
                .disk("nvme1n1", "259:2", false, 1023, null, 512, 512, "Micron 7450", 0)
                .deviceMapper("dm-0", "253:0", "vg-data", "nvme1n1", false);
        Path mnt = tree.mount("mnt/lvm", "253:0", "ext4", "/dev/mapper/vg-data", false);
        BlockDevice d = storage(tree).describe(mnt).device().orElseThrow();
        assertThat(d.name()).isEqualTo("dm-0");
        assertThat(d.underlying()).isEqualTo("nvme1n1");
        assertThat(d.model()).contains("Micron 7450");
        assertThat(d.deviceClass()).isEqualTo(DeviceClass.NVME);
    }

    @Test
    void tmpfsHasNoBlockDevice() {
        FakeHostTree tree = new FakeHostTree(tmp);
        Path mnt = tree.mount("mnt/ram", "0:45", "tmpfs", "tmpfs", false);
        Storage s = storage(tree).describe(mnt.resolve("cleave"));
        assertThat(s.mount().inMemory()).isTrue();
        assertThat(s.device()).isEmpty();
        assertThat(s.deviceClass()).isEqualTo(DeviceClass.UNKNOWN);
        assertThat(s.deviceName()).isEqualTo("tmpfs (tmpfs)");
    }

    @Test
    void readOnlyMountIsNotWritable() {
        FakeHostTree tree = new FakeHostTree(tmp);
        Path mnt = tree.mount("mnt/ro", "8:32", "ext4", "/dev/sdc", true);
        assertThat(storage(tree).describe(mnt.resolve("data")).notWritable())
                .contains("the filesystem mounted at " + mnt + " is read-only");
    }

    @Test
    void spacesInMountPointsAreUnescaped() {
        FakeHostTree tree = new FakeHostTree(tmp).disk("sdd", "8:48", false, 64, 32, 512, 512, null, 0);
        Path mnt = tree.mount("mnt/my disk", "8:48", "ext4", "/dev/sdd", false);
        Storage s = storage(tree).describe(mnt);
        assertThat(s.mount().mountPoint()).isEqualTo(mnt);
        assertThat(s.device().orElseThrow().model()).isEmpty();
    }

    @Test
    void theRealProbeAnswersForThisMachine() {
        Storage s = SysfsStorage.local().describe(tmp.resolve("not-yet"));
        assertThat(s.mount().fsType()).isNotBlank();
        assertThat(s.notWritable()).isEmpty();
    }
}
