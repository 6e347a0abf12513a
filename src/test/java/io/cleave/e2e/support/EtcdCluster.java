package io.cleave.e2e.support;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Three etcd members (Debian's etcd-server, which scripts/test installs) as child processes of the test, on
 * loopback ports, their data in {@code dir}. Fast elections (heartbeat 100 ms, election 1 s), as on a LAN.
 */
public final class EtcdCluster implements AutoCloseable {

    private final List<Process> members = new ArrayList<>();
    private final List<Integer> clientPorts = new ArrayList<>();

    /** The etcd binary, when installed. */
    public static boolean installed() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, "etcd"))) {
                return true;
            }
        }
        return false;
    }

    public static EtcdCluster start(Path dir) throws IOException, InterruptedException {
        EtcdCluster cluster = new EtcdCluster();
        List<Integer> peers = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            cluster.clientPorts.add(CleaveTestHome.freePort());
            peers.add(CleaveTestHome.freePort());
        }
        StringBuilder initial = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            initial.append(i == 0 ? "" : ",").append("m").append(i).append("=http://127.0.0.1:").append(peers.get(i));
        }
        String token = "cleave-it-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        try {
            for (int i = 0; i < 3; i++) {
                String client = "http://127.0.0.1:" + cluster.clientPorts.get(i);
                String peer = "http://127.0.0.1:" + peers.get(i);
                Process p = new ProcessBuilder("etcd", "--name", "m" + i, "--data-dir", dir.resolve("m" + i).toString(),
                        "--listen-client-urls", client, "--advertise-client-urls", client,
                        "--listen-peer-urls", peer, "--initial-advertise-peer-urls", peer,
                        "--initial-cluster", initial.toString(), "--initial-cluster-state", "new",
                        "--initial-cluster-token", token, "--heartbeat-interval", "100", "--election-timeout", "1000")
                        .redirectErrorStream(true).redirectOutput(dir.resolve("m" + i + ".log").toFile()).start();
                cluster.members.add(p);
            }
            cluster.awaitListening();
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void awaitListening() throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (int port : clientPorts) {
            while (true) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress("127.0.0.1", port), 200);
                    break;
                } catch (IOException e) {
                    if (System.nanoTime() > deadline) {
                        throw new IllegalStateException("etcd member on port " + port + " did not listen within 30 s");
                    }
                    Thread.sleep(100);
                }
            }
        }
    }

    public List<Integer> clientPorts() {
        return List.copyOf(clientPorts);
    }

    /** The members' client URLs. */
    public List<String> urls() {
        return clientPorts.stream().map(p -> "http://127.0.0.1:" + p).toList();
    }

    /** A config's coordination section naming {@code urls}. */
    public static String yaml(List<String> urls, String cluster, int leaseSeconds) {
        return "coordination:\n  etcd: [" + String.join(", ", urls) + "]\n  cluster: " + cluster + "\n  lease_s: "
                + leaseSeconds + "\n";
    }

    @Override
    public void close() {
        for (Process p : members) {
            p.destroyForcibly();
        }
        for (Process p : members) {
            try {
                p.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
