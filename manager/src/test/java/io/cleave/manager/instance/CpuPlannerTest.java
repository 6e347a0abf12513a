package io.cleave.manager.instance;

import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cleave.manager.instance.PlannerFixture.setting;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** cpu_sets on hosts with one and with two NUMA nodes, with and without numactl. */
class CpuPlannerTest extends FakeHostTest {

    /** 16 CPUs in 8 hyperthreaded cores (cpu i and i + 8 are siblings), nodes of 4 cores each, 64G of memory. */
    private void twoNodes() {
        f.tree.cpus(16, true).memory(64L * 1024 * 1024).node(0, "0-3,8-11", 32L * 1024 * 1024).node(1, "4-7,12-15", 32L * 1024 * 1024);
        f.tool("numactl");
    }

    private List<CpuPlacement> place(String yaml) {
        return f.plan(yaml).instances().stream().map(InstancePlan::cpu).toList();
    }

    @Test
    void oneNodeSplitsCoresEvenlyWithTaskset() {
        List<CpuPlacement> cpus = place("shards: 4\ncpu_sets: auto");
        assertThat(cpus).extracting(c -> c.cpus().toString()).containsExactly("0-1", "2-3", "4-5", "6-7");
        assertThat(cpus.get(1).launch()).containsExactly("taskset", "-c", "2-3");
        assertThat(cpus.get(1).memoryNodes()).isEmpty();
        assertThat(cpus.get(1).reason()).isEqualTo("an even share of the host's cores (4 shards on 8 cores); one NUMA node,"
                + " so memory is local to every CPU");
        assertThat(cpus.get(1).cores()).isEqualTo(2);
    }

    @Test
    void moreShardsThanCpusShareThem() {
        f.tree.cpus(2, false);
        List<CpuPlacement> cpus = place("shards: 4\ncpu_sets: auto");
        assertThat(cpus).extracting(c -> c.cpus().toString()).containsExactly("0", "1", "0", "1");
        assertThat(cpus.get(2).reason()).startsWith("CPU 0 shared with 1 other shard (4 shards on 2 CPUs)");
        assertThat(cpus).extracting(CpuPlacement::cores).containsOnly(1);
    }

    @Test
    void twoNodesTwoShardsGetANodeEachWithItsMemory() {
        twoNodes();
        HostPlan plan = f.plan("shards: 2\nbuffer_pool: 16G\ncpu_sets: auto");
        CpuPlacement second = plan.instances().get(1).cpu();
        assertThat(second.cpus().toString()).isEqualTo("4-7,12-15");
        assertThat(second.launch()).containsExactly("numactl", "--cpunodebind=1", "--membind=1");
        assertThat(second.nodes()).containsExactly(1);
        assertThat(second.memoryNodes()).containsExactly(1);
        assertThat(second.reason()).isEqualTo("NUMA node 1 of 2, its CPUs and its memory");
        assertThat(setting(plan.instances().get(1), "innodb_read_io_threads").value()).as("half of its 8 CPUs").isEqualTo("4");
    }

    @Test
    void twoNodesFourShardsSplitEachNodesCores() {
        twoNodes();
        List<CpuPlacement> cpus = place("shards: 4\nbuffer_pool: 16G\ncpu_sets: auto");
        assertThat(cpus).extracting(c -> c.cpus().toString()).as("hyperthread siblings stay together")
                .containsExactly("0-1,8-9", "2-3,10-11", "4-5,12-13", "6-7,14-15");
        assertThat(cpus.get(2).launch()).containsExactly("numactl", "--physcpubind=4-5,12-13", "--membind=1");
        assertThat(cpus.get(2).reason()).isEqualTo("1/2 of NUMA node 1's cores (2 shards per node, 2 nodes), memory on that node");
    }

    @Test
    void threeShardsOnTwoNodesInterleaveWhereTheySpanBoth() {
        twoNodes();
        List<CpuPlacement> cpus = place("shards: 3\nbuffer_pool: 12G\ncpu_sets: auto");
        assertThat(cpus).extracting(c -> c.cpus().toString()).containsExactly("0-2,8-10", "3-5,11-13", "6-7,14-15");
        assertThat(cpus.get(1).launch()).containsExactly("numactl", "--physcpubind=3-5,11-13", "--interleave=0,1");
        assertThat(cpus.get(2).launch()).containsExactly("numactl", "--physcpubind=6-7,14-15", "--membind=1");
    }

    @Test
    void oneShardOnTwoNodesInterleavesItsMemory() {
        twoNodes();
        CpuPlacement only = place("shards: 1\nbuffer_pool: 16G\ncpu_sets: auto").get(0);
        assertThat(only.launch()).containsExactly("numactl", "--cpunodebind=0,1", "--interleave=0,1");
        assertThat(only.cpus().size()).isEqualTo(16);
    }

    @Test
    void withoutNumactlTwoNodesUseTasksetAndSaySo() {
        f.tree.cpus(16, true).memory(64L * 1024 * 1024).node(0, "0-3,8-11", 32L * 1024 * 1024).node(1, "4-7,12-15", 32L * 1024 * 1024);
        CpuPlacement first = place("shards: 2\nbuffer_pool: 16G\ncpu_sets: auto").get(0);
        assertThat(first.launch()).containsExactly("taskset", "-c", "0-3,8-11");
        assertThat(first.memoryNodes()).isEmpty();
        assertThat(first.reason()).endsWith("numactl is not installed, so memory goes where the kernel first touches it (install numactl to bind it)");
    }

    @Test
    void poolsBoundToANodeMustFitItsMemory() {
        f.tree.cpus(16, true).memory(64L * 1024 * 1024).node(0, "0-3,8-11", 16L * 1024 * 1024).node(1, "4-7,12-15", 16L * 1024 * 1024);
        f.tool("numactl");
        assertThatThrownBy(() -> f.plan("shards: 4\nbuffer_pool: 40G\ncpu_sets: auto"))
                .isInstanceOfSatisfying(PlanRefusedException.class, e -> assertThat(e.problems()).containsExactly(
                        "shard-0, shard-1 bind their memory to NUMA node 0 (16.0G), but their buffer pools take 20.0G: lower"
                                + " buffer_pool, or run fewer shards per node",
                        "shard-2, shard-3 bind their memory to NUMA node 1 (16.0G), but their buffer pools take 20.0G: lower"
                                + " buffer_pool, or run fewer shards per node"));
    }

    @Test
    void explicitListsRunUnderTasksetAndMustNameTheHostsCpus() {
        CpuPlacement second = place("shards: 2\ncpu_sets: [\"0-3\", \"4-7\"]").get(1);
        assertThat(second.launch()).containsExactly("taskset", "-c", "4-7");
        assertThat(second.reason()).isEqualTo("cpu_sets[1] in the config");
        assertThatThrownBy(() -> place("shards: 2\ncpu_sets: [\"0-3\", \"8-15\"]"))
                .hasMessageContaining("cpu_sets[1] is 8-15, but this host has CPUs 0-7 only: name CPUs it has, or use cpu_sets: auto");
    }

    @Test
    void unpinnedShardsShareEveryCpu() {
        CpuPlacement p = place("shards: 4").get(0);
        assertThat(p.pinned()).isFalse();
        assertThat(p.launch()).isEmpty();
        assertThat(p.cpus().toString()).isEqualTo("0-7");
        assertThat(p.cores()).isEqualTo(2);
        assertThat(p.reason()).isEqualTo("not pinned (cpu_sets is empty): the kernel schedules it on any of the 8 CPUs, shared with 3 other shards");
    }

    @Test
    void splitKeepsRunsNearlyEqual() {
        List<io.cleave.manager.host.CpuList> cores = java.util.stream.IntStream.range(0, 10)
                .mapToObj(i -> io.cleave.manager.host.CpuList.of(List.of(i))).toList();
        assertThat(CpuPlanner.split(cores, 4)).extracting(Object::toString).containsExactly("0-2", "3-5", "6-7", "8-9");
    }
}
