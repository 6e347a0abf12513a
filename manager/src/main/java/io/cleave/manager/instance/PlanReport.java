package io.cleave.manager.instance;

import io.cleave.manager.host.BlockDevice;
import io.cleave.manager.host.HostFacts;
import io.cleave.manager.host.Storage;

import java.util.List;
import java.util.Locale;

/** A plan as {@code cleave plan --json} prints it: plain values only, so scripts need nothing of Cleave's types. */
public record PlanReport(String config, String server, Host host, List<Device> devices, List<Instance> instances,
                         List<String> notes) {

    public record Host(String cpus, int cores, long memoryBytes, List<Node> numaNodes, boolean numactl, boolean taskset) {
    }

    public record Node(int id, String cpus, long memoryBytes) {
    }

    /**
     * @param kind one of nvme, ssd, rotational, unknown
     */
    public record Device(String name, String kind, String filesystem, String mountPoint, Boolean rotational, Integer queueDepth,
                         Integer logicalSectorBytes, Integer physicalSectorBytes, String model, Long atomicWriteBytes,
                         boolean directIo, String directIoRefused) {
    }

    public record Instance(String name, int port, int serverId, String socket, String cnf, long bufferPoolBytes, String cpus,
                           List<Integer> numaNodes, List<Integer> memoryNodes, List<String> launch, String cpuReason,
                           String datadir, String dataDevice, String logDir, String logDevice, List<Option> settings) {
    }

    /**
     * @param outcome written, server_default, not_in_server, replaced or from_options
     * @param group   the my.cnf section: identity, memory, threads, flash, redo, binlog, ids, charset or options
     */
    public record Option(String option, String value, String outcome, String group, String reason) {
    }

    public static PlanReport of(HostPlan plan) {
        HostFacts h = plan.host();
        Host host = new Host(h.cpus().toString(), h.cores().size(), h.memoryBytes(),
                h.nodes().stream().map(n -> new Node(n.id(), n.cpus().toString(), n.memoryBytes())).toList(),
                h.numactl().isPresent(), h.taskset().isPresent());
        List<Device> devices = plan.devices().values().stream().map(PlanReport::device).toList();
        List<Instance> instances = plan.instances().stream().map(p -> new Instance(p.name(), p.port(), p.serverId(),
                p.socket().toString(), p.cnf().toString(), p.bufferPoolBytes(), p.cpu().cpus().toString(), p.cpu().nodes(),
                p.cpu().memoryNodes(), p.cpu().launch(), p.cpu().reason(), p.datadir().toString(), p.dataStorage().deviceName(),
                p.logDir().toString(), p.logStorage().deviceName(),
                p.settings().stream().map(s -> new Option(s.option(), s.value(), s.outcome().name().toLowerCase(Locale.ROOT),
                        s.group().name().toLowerCase(Locale.ROOT), s.reason())).toList())).toList();
        return new PlanReport(plan.config().source().toString(), plan.binary().describe(), host, devices, instances, plan.notes());
    }

    private static Device device(Storage s) {
        BlockDevice d = s.device().orElse(null);
        return new Device(s.deviceName(), s.deviceClass().name().toLowerCase(Locale.ROOT), s.mount().fsType(),
                s.mount().mountPoint().toString(), d == null ? null : d.rotational(), d == null ? null : d.queueDepth(),
                d == null ? null : d.logicalSectorBytes(), d == null ? null : d.physicalSectorBytes(),
                d == null ? null : d.model().orElse(null), d == null ? null : d.atomicWriteBytes(),
                s.directIoRefused().isEmpty(), s.directIoRefused().orElse(null));
    }
}
