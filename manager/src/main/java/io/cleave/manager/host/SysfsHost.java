package io.cleave.manager.host;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * Reads the host's CPUs, cores, NUMA nodes and memory from /sys and /proc. The roots are
 * parameters so tests read fake trees; nothing here needs more than read access.
 */
public final class SysfsHost {

    private static final Pattern NODE_DIR = Pattern.compile("node(\\d+)");
    private static final Pattern MEM_TOTAL = Pattern.compile("MemTotal:\\s+(\\d+) kB");

    private final Path sys;
    private final Path proc;
    private final String pathVariable;

    /**
     * @param sys          the sysfs root, normally {@code /sys}
     * @param proc         the procfs root, normally {@code /proc}
     * @param pathVariable PATH, to find numactl and taskset
     */
    public SysfsHost(Path sys, Path proc, String pathVariable) {
        this.sys = sys;
        this.proc = proc;
        this.pathVariable = pathVariable == null ? "" : pathVariable;
    }

    public static SysfsHost local(String pathVariable) {
        return new SysfsHost(Path.of("/sys"), Path.of("/proc"), pathVariable);
    }

    public HostFacts facts() {
        CpuList cpus = usableCpus();
        return new HostFacts(cpus, cores(cpus), nodes(cpus), memory(), onPath("numactl"), onPath("taskset"));
    }

    /** Online CPUs, narrowed to those this process may use (a container or cgroup may allow fewer). */
    private CpuList usableCpus() {
        CpuList online = read(sys.resolve("devices/system/cpu/online")).map(CpuList::parse)
                .orElseGet(() -> CpuList.parse("0-" + (Runtime.getRuntime().availableProcessors() - 1)));
        Optional<CpuList> allowed = lines(proc.resolve("self/status")).stream()
                .filter(l -> l.startsWith("Cpus_allowed_list:"))
                .map(l -> CpuList.parse(l.substring(l.indexOf(':') + 1)))
                .findFirst();
        return allowed.map(online::intersect).filter(c -> !c.isEmpty()).orElse(online);
    }

    private List<CpuList> cores(CpuList cpus) {
        Map<CpuList, Boolean> cores = new LinkedHashMap<>();
        for (int cpu : cpus.cpus()) {
            Path topology = sys.resolve("devices/system/cpu/cpu" + cpu + "/topology");
            CpuList siblings = read(topology.resolve("core_cpus_list"))
                    .or(() -> read(topology.resolve("thread_siblings_list")))
                    .map(CpuList::parse).map(s -> s.intersect(cpus))
                    .filter(s -> s.contains(cpu))
                    .orElse(CpuList.of(List.of(cpu)));
            cores.putIfAbsent(siblings, true);
        }
        return List.copyOf(cores.keySet());
    }

    private List<NumaNode> nodes(CpuList cpus) {
        List<NumaNode> nodes = new ArrayList<>();
        Path dir = sys.resolve("devices/system/node");
        if (Files.isDirectory(dir)) {
            try (Stream<Path> entries = Files.list(dir)) {
                for (Path node : entries.sorted().toList()) {
                    Matcher m = NODE_DIR.matcher(node.getFileName().toString());
                    if (!m.matches()) {
                        continue;
                    }
                    CpuList nodeCpus = read(node.resolve("cpulist")).map(CpuList::parse).orElse(CpuList.of(List.of()))
                            .intersect(cpus);
                    if (!nodeCpus.isEmpty()) {
                        long memory = lines(node.resolve("meminfo")).stream().map(l -> l.replaceFirst("^Node \\d+ ", ""))
                                .map(MEM_TOTAL::matcher).filter(Matcher::find)
                                .mapToLong(mm -> Long.parseLong(mm.group(1)) * 1024).findFirst().orElse(0);
                        nodes.add(new NumaNode(Integer.parseInt(m.group(1)), nodeCpus, memory));
                    }
                }
            } catch (IOException e) {
                nodes.clear();
            }
        }
        nodes.sort(java.util.Comparator.comparingInt(NumaNode::id));
        if (nodes.isEmpty()) {
            nodes.add(new NumaNode(0, cpus, memory()));
        }
        return nodes;
    }

    private long memory() {
        return lines(proc.resolve("meminfo")).stream().map(MEM_TOTAL::matcher).filter(Matcher::find)
                .mapToLong(m -> Long.parseLong(m.group(1)) * 1024).findFirst()
                .orElse(Runtime.getRuntime().maxMemory());
    }

    private Optional<Path> onPath(String program) {
        for (String dir : pathVariable.split(File.pathSeparator)) {
            if (!dir.isBlank()) {
                Path candidate = Path.of(dir, program);
                if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                    return Optional.of(candidate);
                }
            }
        }
        return Optional.empty();
    }

    static Optional<String> read(Path file) {
        try {
            return Optional.of(Files.readString(file).trim()).filter(s -> !s.isEmpty());
        } catch (IOException | UnsupportedOperationException e) {
            return Optional.empty();
        }
    }

    static List<String> lines(Path file) {
        try {
            return Files.readAllLines(file);
        } catch (IOException e) {
            return List.of();
        }
    }
}
