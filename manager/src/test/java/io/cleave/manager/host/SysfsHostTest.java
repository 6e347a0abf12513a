package io.cleave.manager.host;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class SysfsHostTest {

    @TempDir
    Path tmp;

    @Test
    void cpuListsParseAndPrintAsLinuxWritesThem() {
        assertThat(CpuList.parse("0-3,8,10-11").cpus()).containsExactly(0, 1, 2, 3, 8, 10, 11);
        assertThat(CpuList.parse("8,0-3,2").toString()).isEqualTo("0-3,8");
        assertThat(CpuList.of(List.of(5)).toString()).isEqualTo("5");
        assertThat(CpuList.parse("0-7").intersect(CpuList.parse("4-11")).toString()).isEqualTo("4-7");
        assertThatThrownBy(() -> CpuList.parse("0-")).hasMessageContaining("is not a CPU list");
    }

    @Test
    void twoNodesWithHyperthreadsAndTheirMemory() {
        FakeHostTree tree = new FakeHostTree(tmp).cpus(16, true).memory(131_072_000)
                .node(0, "0-3,8-11", 65_536_000).node(1, "4-7,12-15", 65_536_000);
        HostFacts host = new SysfsHost(tree.sys(), tree.proc(), "").facts();
        assertThat(host.cpus().size()).isEqualTo(16);
        assertThat(host.memoryBytes()).isEqualTo(131_072_000L * 1024);
        assertThat(host.nodes()).extracting(NumaNode::id).containsExactly(0, 1);
        assertThat(host.nodes().get(1).cpus().toString()).isEqualTo("4-7,12-15");
        assertThat(host.nodes().get(1).memoryBytes()).isEqualTo(65_536_000L * 1024);
        assertThat(host.cores()).hasSize(8);
        assertThat(host.cores().get(0).toString()).as("cpu 0 and its sibling 8 are one core").isEqualTo("0,8");
        assertThat(host.nodeOf(13).orElseThrow().id()).isEqualTo(1);
    }

    @Test
    void aHostWithoutNumaIsOneNodeAndAnAllowedListNarrowsTheCpus() {
        FakeHostTree tree = new FakeHostTree(tmp).cpus(8, false).allowedCpus("2-5");
        HostFacts host = new SysfsHost(tree.sys(), tree.proc(), "").facts();
        assertThat(host.cpus().toString()).isEqualTo("2-5");
        assertThat(host.nodes()).singleElement().satisfies(n -> {
            assertThat(n.id()).isZero();
            assertThat(n.cpus().toString()).isEqualTo("2-5");
        });
        assertThat(host.cores()).hasSize(4);
    }

    @Test
    void toolsAreFoundOnThePath() throws Exception {
        FakeHostTree tree = new FakeHostTree(tmp).cpus(2, false);
        Path bin = tree.dir("bin");
        Path numactl = java.nio.file.Files.createFile(bin.resolve("numactl"));
        numactl.toFile().setExecutable(true);
        HostFacts host = new SysfsHost(tree.sys(), tree.proc(), "/nonexistent:" + bin).facts();
        assertThat(host.numactl()).contains(numactl);
        assertThat(host.taskset()).isEmpty();
    }
}
