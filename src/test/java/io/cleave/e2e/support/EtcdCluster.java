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
 * {@link #startTls} serves clients over TLS only, and only those with a client certificate of its CA.
 */
public final class EtcdCluster implements AutoCloseable {

    private final List<Process> members = new ArrayList<>();
    private final List<Integer> clientPorts = new ArrayList<>();
    private final List<String> clientUrls = new ArrayList<>();
    private EtcdCertificates certificates;

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
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            members.add(new Member("127.0.0.1", CleaveTestHome.freePort(), CleaveTestHome.freePort(), List.of(), "http"));
        }
        return start(dir, members, null);
    }

    /**
     * Three members on loopback whose client URLs are https, with certificates made by {@link EtcdCertificates} in
     * {@code dir}: each presents one for IP 127.0.0.1, and requires a client certificate of the same CA
     * ({@code --client-cert-auth}). Peers talk plain http on loopback.
     */
    public static EtcdCluster startTls(Path dir) throws IOException, InterruptedException {
        EtcdCertificates certificates = EtcdCertificates.create(dir.resolve("tls"));
        List<Member> members = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            members.add(new Member("127.0.0.1", CleaveTestHome.freePort(), CleaveTestHome.freePort(), List.of(), "https"));
        }
        return start(dir, members, certificates);
    }

    /** Three members, member i in host {@code hosts[i]} of {@code net}, on that host's address (ports 2379, 2380). */
    public static EtcdCluster startIn(NetnsHosts net, List<String> hosts, Path dir) throws IOException, InterruptedException {
        List<Member> members = new ArrayList<>();
        for (String host : hosts) {
            members.add(new Member(net.address(host), 2379, 2380, net.inHost(host, List.of()), "http"));
        }
        return start(dir, members, null);
    }

    /** One member: its address, ports, and the command prefix it runs under (e.g. {@code ip netns exec NS}). */
    private record Member(String host, int clientPort, int peerPort, List<String> prefix, String clientScheme) {
        String client() {
            return clientScheme + "://" + host + ":" + clientPort;
        }

        String peer() {
            return "http://" + host + ":" + peerPort;
        }
    }

    private static EtcdCluster start(Path dir, List<Member> members, EtcdCertificates certificates)
            throws IOException, InterruptedException {
        EtcdCluster cluster = new EtcdCluster();
        cluster.certificates = certificates;
        StringBuilder initial = new StringBuilder();
        for (int i = 0; i < members.size(); i++) {
            initial.append(i == 0 ? "" : ",").append("m").append(i).append("=").append(members.get(i).peer());
        }
        String token = "cleave-it-" + ProcessHandle.current().pid() + "-" + System.nanoTime();
        try {
            for (int i = 0; i < members.size(); i++) {
                Member m = members.get(i);
                cluster.clientUrls.add(m.client());
                cluster.clientPorts.add(m.clientPort());
                List<String> command = new ArrayList<>(m.prefix());
                command.addAll(List.of("etcd", "--name", "m" + i, "--data-dir", dir.resolve("m" + i).toString(),
                        "--listen-client-urls", m.client(), "--advertise-client-urls", m.client(),
                        "--listen-peer-urls", m.peer(), "--initial-advertise-peer-urls", m.peer(),
                        "--initial-cluster", initial.toString(), "--initial-cluster-state", "new",
                        "--initial-cluster-token", token, "--heartbeat-interval", "100", "--election-timeout", "1000"));
                if (certificates != null) {
                    command.addAll(List.of("--cert-file", certificates.member().toString(),
                            "--key-file", certificates.memberKey().toString(),
                            "--trusted-ca-file", certificates.ca().toString(), "--client-cert-auth"));
                }
                Process p = new ProcessBuilder(command)
                        .redirectErrorStream(true).redirectOutput(dir.resolve("m" + i + ".log").toFile()).start();
                cluster.members.add(p);
            }
            cluster.awaitListening(members);
            return cluster;
        } catch (IOException | InterruptedException | RuntimeException e) {
            cluster.close();
            throw e;
        }
    }

    private void awaitListening(List<Member> all) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        for (Member m : all) {
            int port = m.clientPort();
            while (true) {
                try (Socket s = new Socket()) {
                    s.connect(new InetSocketAddress(m.host(), port), 200);
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

    /** The certificates of a cluster from {@link #startTls}; null for a plain one. */
    public EtcdCertificates certificates() {
        return certificates;
    }

    /** The members' client URLs. */
    public List<String> urls() {
        return List.copyOf(clientUrls);
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
