package io.cleave.manager.instance;

import io.cleave.manager.config.ByteSize;
import io.cleave.manager.host.HostFacts;
import io.cleave.manager.host.Storage;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;

/** A plan as a person reads it: the host and its devices, then per instance where it runs and every option with its reason. */
public final class PlanText {

    private static final int OPTION_WIDTH = 46;

    private PlanText() {
    }

    public static String render(HostPlan plan) {
        StringBuilder out = new StringBuilder();
        HostFacts host = plan.host();
        int n = plan.instances().size();
        out.append(n).append(n == 1 ? " shard" : " shards").append(" of ").append(plan.binary().describe()).append('\n');
        out.append("config ").append(plan.config().source()).append('\n');
        out.append("host: ").append(host.cpus().size()).append(" CPUs (").append(host.cpus()).append(") in ")
                .append(host.cores().size()).append(" cores, ").append(host.nodes().size())
                .append(host.nodes().size() == 1 ? " NUMA node, " : " NUMA nodes, ").append(PlanChecks.gib(host.memoryBytes()))
                .append(" of memory; buffer pools ").append(ByteSize.format(plan.config().bufferPoolBytes())).append(" in total (")
                .append(String.format(Locale.ROOT, "%.0f%%", 100.0 * plan.config().bufferPoolBytes() / host.memoryBytes()))
                .append(" of memory)").append('\n');
        if (host.nodes().size() > 1) {
            host.nodes().forEach(node -> out.append("  NUMA node ").append(node.id()).append(": CPUs ").append(node.cpus())
                    .append(", ").append(PlanChecks.gib(node.memoryBytes())).append('\n'));
        }
        out.append("devices:\n");
        for (Map.Entry<String, Storage> d : plan.devices().entrySet()) {
            Storage s = d.getValue();
            out.append("  ").append(s.describe()).append('\n');
            out.append("    ").append(s.directIoRefused().map(why -> "no O_DIRECT: " + why).orElse("O_DIRECT works")).append("; ")
                    .append(uses(plan, d.getKey())).append('\n');
        }
        if (!plan.notes().isEmpty()) {
            out.append("notes:\n");
            plan.notes().forEach(note -> out.append("  - ").append(note).append('\n'));
        }
        List<Setting> common = n > 1 ? common(plan.instances()) : List.of();
        if (!common.isEmpty()) {
            out.append("\nevery shard:\n");
            settings(out, plan, common);
        }
        for (InstancePlan p : plan.instances()) {
            out.append('\n').append(instance(p, plan, common));
        }
        return out.toString();
    }

    private static String uses(HostPlan plan, String device) {
        List<String> data = plan.instances().stream().filter(p -> p.dataStorage().deviceName().equals(device))
                .map(InstancePlan::name).toList();
        List<String> logs = plan.instances().stream().filter(p -> p.separateLogDir() && p.logStorage().deviceName().equals(device))
                .map(InstancePlan::name).toList();
        StringBuilder out = new StringBuilder();
        if (!data.isEmpty()) {
            out.append("datadirs").append(plan.instances().get(0).separateLogDir() ? "" : ", redo logs and binlogs")
                    .append(" of ").append(String.join(", ", data));
        }
        if (!logs.isEmpty()) {
            out.append(out.length() == 0 ? "" : "; ").append("redo logs and binlogs of ").append(String.join(", ", logs));
        }
        return out.toString();
    }

    /** The settings every instance has alike (same value, outcome and reason): listed once. */
    private static List<Setting> common(List<InstancePlan> instances) {
        return instances.get(0).settings().stream()
                .filter(s -> instances.stream().allMatch(p -> p.settings().contains(s))).toList();
    }

    static String instance(InstancePlan p, HostPlan plan, List<Setting> common) {
        StringBuilder out = new StringBuilder();
        CpuPlacement cpu = p.cpu();
        out.append(p.name()).append(": port ").append(p.port()).append(", buffer pool ").append(ByteSize.format(p.bufferPoolBytes()))
                .append(", my.cnf ").append(p.cnf()).append('\n');
        out.append("  CPUs ").append(cpu.cpus()).append(", NUMA node").append(cpu.nodes().size() == 1 ? " " : "s ")
                .append(cpu.nodes().stream().map(String::valueOf).collect(Collectors.joining(",")))
                .append(cpu.memoryNodes().isEmpty() ? "" : ", memory bound to node" + (cpu.memoryNodes().size() == 1 ? " " : "s ")
                        + cpu.memoryNodes().stream().map(String::valueOf).collect(Collectors.joining(",")))
                .append(": ").append(cpu.reason()).append('\n');
        if (cpu.pinned()) {
            out.append("  runs as: ").append(String.join(" ", cpu.launch())).append(" mysqld ...").append('\n');
        }
        out.append("  datadir ").append(p.datadir()).append(" on ").append(p.dataStorage().deviceName()).append('\n');
        out.append("  redo log and binlog ").append(p.separateLogDir() ? "in " + p.logDir() + " on " + p.logStorage().deviceName()
                : "in the datadir").append('\n');
        settings(out, plan, p.settings().stream().filter(s -> !common.contains(s)).toList());
        return out.toString();
    }

    private static void settings(StringBuilder out, HostPlan plan, List<Setting> settings) {
        section(out, "my.cnf (differs from the server's default):", settings, Setting.Outcome.WRITTEN, Setting.Outcome.FROM_OPTIONS);
        section(out, "kept at " + plan.binary().flavour().displayName() + " " + plan.binary().version() + "'s default:",
                settings, Setting.Outcome.SERVER_DEFAULT);
        section(out, "left out:", settings, Setting.Outcome.NOT_IN_SERVER);
        section(out, "planned, but server.options sets it:", settings, Setting.Outcome.REPLACED);
    }

    private static void section(StringBuilder out, String title, List<Setting> settings, Setting.Outcome... outcomes) {
        List<Setting> mine = settings.stream().filter(s -> List.of(outcomes).contains(s.outcome())).toList();
        if (mine.isEmpty()) {
            return;
        }
        out.append("  ").append(title).append('\n');
        for (Setting s : mine) {
            String line = s.outcome() == Setting.Outcome.NOT_IN_SERVER ? s.option() : s.option() + " = " + s.value();
            out.append("    ").append(line).append(" ".repeat(Math.max(1, OPTION_WIDTH - line.length())))
                    .append(s.reason()).append('\n');
        }
    }
}
