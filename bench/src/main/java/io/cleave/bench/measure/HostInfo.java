package io.cleave.bench.measure;

import io.cleave.bench.exec.ChildProcess;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/** What a figure depends on: cores, CPU model, memory, the disk under the datadirs, the JVM. */
public final class HostInfo {

    private HostInfo() {
    }

    /** dataPath: a directory on the filesystem the shards' datadirs live on. */
    public static Map<String, String> collect(Path dataPath) {
        Map<String, String> host = new LinkedHashMap<>();
        int cores = Runtime.getRuntime().availableProcessors();
        String model = cpuModel();
        String memory = memory();
        host.put("cores", Integer.toString(cores));
        host.put("cpu", model);
        host.put("memory", memory);
        host.put("disk", disk(dataPath));
        host.put("java", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        host.put("machine", cores + " cores (" + model + "), " + memory + " RAM, datadirs on " + host.get("disk"));
        return host;
    }

    static String cpuModel() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/cpuinfo"))) {
                if (line.startsWith("model name")) {
                    return line.substring(line.indexOf(':') + 1).trim().replaceAll("\\s+", " ");
                }
            }
        } catch (IOException e) {
            // fall through
        }
        return "unknown CPU";
    }

    static String memory() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    long kib = Long.parseLong(line.replaceAll("\\D+", ""));
                    return String.format(Locale.ROOT, "%.1f GiB", kib / 1024.0 / 1024.0);
                }
            }
        } catch (IOException | NumberFormatException e) {
            // fall through
        }
        return "unknown";
    }

    /** "ext4 on /dev/vda1 (SSD)": the filesystem type and device from df, rotational or not from sysfs. */
    static String disk(Path dataPath) {
        try {
            ChildProcess.Result df = ChildProcess.run(List.of("df", "-h", "--output=source,fstype,size", dataPath.toString()),
                Duration.ofSeconds(10));
            List<String> lines = df.output().strip().lines().toList();
            if (df.exitCode() != 0 || lines.size() < 2) {
                return "unknown disk";
            }
            String[] f = lines.get(1).trim().split("\\s+");
            String device = f[0];
            return f[1] + " on " + device + " (" + f[2] + ", " + rotational(device) + ")";
        } catch (RuntimeException e) {
            return "unknown disk";
        }
    }

    private static String rotational(String device) {
        String name = Path.of(device).getFileName().toString();
        for (String candidate : List.of(name, name.replaceAll("p?\\d+$", ""))) {
            Path flag = Path.of("/sys/block", candidate, "queue/rotational");
            try {
                if (Files.exists(flag)) {
                    return Files.readString(flag).trim().equals("0") ? "reported non-rotational" : "reported rotational";
                }
            } catch (IOException e) {
                break;
            }
        }
        return "rotational or not unknown";
    }
}
