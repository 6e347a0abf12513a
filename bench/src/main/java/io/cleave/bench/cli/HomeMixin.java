package io.cleave.bench.cli;

import io.cleave.bench.home.HomeSpec;
import io.cleave.bench.home.Layout;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Option;

/** Options of the Cleave homes a comparison starts: the binary to run them with and what they get. */
final class HomeMixin {
    @Option(names = "--cleave-jar", description = "The Cleave binary (default: $CLEAVE_JAR, else manager/target/cleave.jar "
        + "of the checkout this jar was built in).")
    Path cleaveJar;

    @Option(names = "--buffer-pool", defaultValue = "1G",
        description = "Total InnoDB buffer pool, split evenly over each home's shards (default: ${DEFAULT-VALUE}).")
    String bufferPool;

    @Option(names = "--server-binary", defaultValue = "auto",
        description = "mysqld/mariadbd to run: auto, embedded, or a path (default: ${DEFAULT-VALUE}).")
    String serverBinary;

    @Option(names = "--datadir-root", description = "Directory for the shards' datadirs, e.g. on a flash device "
        + "(default: inside each home under /tmp).")
    String datadirRoot;

    @Option(names = "--proxy-threads", defaultValue = "0",
        description = "Proxy event loops; 0 keeps Cleave's default, a quarter of the cores (default: ${DEFAULT-VALUE}).")
    int proxyThreads;

    @Option(names = "--cpu-sets", defaultValue = "none", paramLabel = "auto|none",
        description = "auto: each home's shards get an even share of the cores, a NUMA node each where the node count allows"
            + " (Cleave's cpu_sets: auto); none: shards are not pinned (default: ${DEFAULT-VALUE}).")
    String cpuSets;

    HomeSpec spec(Layout layout, int warehouses, int sysbenchTables) {
        return new HomeSpec(1, bufferPool, layout, warehouses, sysbenchTables, serverBinary,
            Optional.ofNullable(datadirRoot), proxyThreads, cpuSets);
    }

    /** How the shards are placed on CPUs, for the settings a results table records. */
    void describeCpus(java.util.Map<String, String> parameters) {
        parameters.put("CPUs", cpuSets.equals("auto")
            ? "cpu_sets: auto (each home's cores split evenly over its shards, a NUMA node each where the node count allows)"
            : "shards not pinned to CPUs");
    }

    Path cleaveJar() {
        return BenchPaths.cleaveJar(cleaveJar);
    }
}
