package io.cleave.e2e.support;

import org.junit.jupiter.api.Assumptions;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Hosts made of Linux network namespaces on this machine: each host a namespace with its own address on a private
 * /24, its one link ({@code eth0}) a veth into a bridge that lives in a "switch" namespace; the test's own namespace
 * joins the bridge through one more veth, so the test's clients reach the hosts' addresses (and only those: the
 * route it adds is the /24's). A host's processes run through {@code ip netns exec}. Partitions: a host's link
 * taken down, or nftables drops in a host's namespace. {@link #close} removes everything it made, and
 * {@link #create} first removes what a crashed earlier run left (names carry the pid of the run that made them).
 */
public final class NetnsHosts implements AutoCloseable {

    private static final String PREFIX = "clv";
    private static final String PARTITION_TABLE = "cleave_partition";

    private final String run;
    private final String subnet;
    private final Map<String, String> addresses = new LinkedHashMap<>();
    private final String testLink;

    private NetnsHosts(String run, String subnet) {
        this.run = run;
        this.subnet = subnet;
        this.testLink = run + "t";
    }

    /** Skips the calling test, saying why, where this machine cannot make namespaces or lacks a tool. */
    public static void assumeUsable() {
        for (String tool : List.of("ip", "nft", "etcd")) {
            Assumptions.assumeTrue(onPath(tool), tool + " is not installed (scripts/test installs iproute2, nftables and"
                    + " etcd-server): hosts in network namespaces cannot be built");
        }
        // Every kind of step the hosts are built with, once: a machine may allow namespaces but not veth pairs,
        // bridges or nftables in them (a container without the kernel modules), and then the tests skip rather
        // than fail half-built.
        String probe = PREFIX + "probe" + ProcessHandle.current().pid();
        String link = PREFIX + "pr" + ProcessHandle.current().pid();
        List<List<String>> steps = List.of(
                List.of("ip", "netns", "add", probe),
                List.of("ip", "-n", probe, "link", "set", "lo", "up"),
                List.of("ip", "-n", probe, "link", "add", "br0", "type", "bridge"),
                List.of("ip", "link", "add", link, "type", "veth", "peer", "name", "vt", "netns", probe),
                List.of("ip", "-n", probe, "link", "set", "vt", "master", "br0", "up"),
                List.of("ip", "netns", "exec", probe, "nft", "add", "table", "inet", "probe"));
        String failed = null;
        for (List<String> step : steps) {
            Result r = exec(step);
            if (r.code() != 0) {
                failed = String.join(" ", step) + ": " + r.out().trim();
                break;
            }
        }
        exec(List.of("ip", "link", "delete", link));
        exec(List.of("ip", "netns", "delete", probe));
        Assumptions.assumeTrue(failed == null, "cannot build hosts of network namespaces here (root with CAP_NET_ADMIN,"
                + " veth, bridge and nftables support are needed): " + failed);
    }

    /**
     * Namespaces for {@code hosts} (host i gets address {@code 10.213.X.(firstHost + i)}), the switch and the test's
     * link ({@code 10.213.X.1}), X picked from this process's pid among /24s no route of this namespace covers.
     */
    public static NetnsHosts create(List<String> hosts, int firstHost) throws IOException, InterruptedException {
        removeLeftovers();
        long pid = ProcessHandle.current().pid();
        String subnet = freeSubnet(pid);
        NetnsHosts net = new NetnsHosts(PREFIX + pid, subnet);
        try {
            net.build(hosts, firstHost);
            return net;
        } catch (IOException | RuntimeException e) {
            net.close();
            throw e;
        }
    }

    private void build(List<String> hosts, int firstHost) throws IOException {
        String sw = namespace("sw");
        must("ip", "netns", "add", sw);
        must("ip", "-n", sw, "link", "set", "lo", "up");
        must("ip", "-n", sw, "link", "add", "br0", "type", "bridge");
        must("ip", "-n", sw, "link", "set", "br0", "up");
        for (int i = 0; i < hosts.size(); i++) {
            String host = hosts.get(i);
            String ns = namespace(host);
            String address = subnet + "." + (firstHost + i);
            must("ip", "netns", "add", ns);
            must("ip", "-n", ns, "link", "set", "lo", "up");
            must("ip", "-n", sw, "link", "add", "v" + i, "type", "veth", "peer", "name", "eth0", "netns", ns);
            must("ip", "-n", sw, "link", "set", "v" + i, "master", "br0", "up");
            must("ip", "-n", ns, "addr", "add", address + "/24", "dev", "eth0");
            must("ip", "-n", ns, "link", "set", "eth0", "up");
            addresses.put(host, address);
        }
        must("ip", "link", "add", testLink, "type", "veth", "peer", "name", "vt", "netns", sw);
        must("ip", "-n", sw, "link", "set", "vt", "master", "br0", "up");
        must("ip", "addr", "add", testAddress() + "/24", "dev", testLink);
        must("ip", "link", "set", testLink, "up");
    }

    /** The address of {@code host}. */
    public String address(String host) {
        String a = addresses.get(host);
        if (a == null) {
            throw new IllegalArgumentException("no host " + host + " among " + addresses.keySet());
        }
        return a;
    }

    /** The test's own address on the hosts' network. */
    public String testAddress() {
        return subnet + ".1";
    }

    /** {@code command} as run inside {@code host}. */
    public List<String> inHost(String host, List<String> command) {
        address(host);
        List<String> out = new ArrayList<>(List.of("ip", "netns", "exec", namespace(host)));
        out.addAll(command);
        return out;
    }

    /** Runs {@code command} in {@code host} and waits for it: its exit code and output. */
    public Result run(String host, List<String> command) {
        return exec(inHost(host, command));
    }

    /** Takes {@code host}'s one link down (up again with {@code up}): the host is cut off from every other. */
    public void link(String host, boolean up) throws IOException {
        must("ip", "-n", namespace(host), "link", "set", "eth0", up ? "up" : "down");
    }

    /** Drops every packet between {@code host} and {@code peers} (nftables in the host's namespace), others flow. */
    public void partition(String host, List<String> peers) throws IOException {
        String set = "{ " + String.join(", ", peers.stream().map(this::address).toList()) + " }";
        String ruleset = "table inet " + PARTITION_TABLE + " {\n"
                + "  chain out { type filter hook output priority 0; ip daddr " + set + " drop; }\n"
                + "  chain in { type filter hook input priority 0; ip saddr " + set + " drop; }\n"
                + "}\n";
        Path file = Files.createTempFile("cleave-nft-", ".nft");
        try {
            Files.writeString(file, ruleset);
            mustIn(host, "nft", "-f", file.toString());
        } finally {
            Files.deleteIfExists(file);
        }
    }

    /** Removes {@link #partition}'s drops. */
    public void heal(String host) throws IOException {
        mustIn(host, "nft", "delete", "table", "inet", PARTITION_TABLE);
    }

    /** The pids of every process in {@code host}'s namespace. */
    public List<Long> pids(String host) {
        Result r = exec(List.of("ip", "netns", "pids", namespace(host)));
        return r.out().lines().map(String::trim).filter(l -> l.matches("[0-9]+")).map(Long::parseLong).toList();
    }

    /** SIGKILL of every process in {@code host}: the host dies. Returns how many there were. */
    public int killAll(String host) {
        List<Long> pids = pids(host);
        for (long pid : pids) {
            ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
        }
        return pids.size();
    }

    @Override
    public void close() {
        for (String host : addresses.keySet()) {
            killAll(host);
        }
        removeRun(run);
    }

    private String namespace(String host) {
        return run + "-" + host;
    }

    private void mustIn(String host, String... command) throws IOException {
        Result r = run(host, List.of(command));
        if (r.code() != 0) {
            throw new IOException("in " + host + ": " + String.join(" ", command) + " failed (" + r.code() + "): " + r.out());
        }
    }

    private static void must(String... command) throws IOException {
        Result r = exec(List.of(command));
        if (r.code() != 0) {
            throw new IOException(String.join(" ", command) + " failed (" + r.code() + "): " + r.out());
        }
    }

    /** Deletes the namespaces and the test link of every run of this prefix whose process is gone. */
    private static void removeLeftovers() {
        java.util.Set<String> runs = new java.util.TreeSet<>();
        for (String line : exec(List.of("ip", "netns", "list")).out().lines().toList()) {
            String name = line.split(" ")[0];
            if (name.matches(PREFIX + "[0-9]+-.+")) {
                runs.add(name.substring(0, name.indexOf('-')));
            }
        }
        for (String line : exec(List.of("ip", "-o", "link", "show")).out().lines().toList()) {
            java.util.regex.Matcher m = java.util.regex.Pattern.compile(": (" + PREFIX + "[0-9]+)t[@:]").matcher(line);
            if (m.find()) {
                runs.add(m.group(1));
            }
        }
        for (String r : runs) {
            long pid = Long.parseLong(r.substring(PREFIX.length()));
            if (ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                continue; // a run in progress, maybe another test's
            }
            removeRun(r);
        }
    }

    private static void removeRun(String run) {
        for (String line : exec(List.of("ip", "netns", "list")).out().lines().toList()) {
            String name = line.split(" ")[0];
            if (name.startsWith(run + "-")) {
                for (String pid : exec(List.of("ip", "netns", "pids", name)).out().lines().map(String::trim)
                        .filter(l -> l.matches("[0-9]+")).toList()) {
                    ProcessHandle.of(Long.parseLong(pid)).ifPresent(ProcessHandle::destroyForcibly);
                }
                exec(List.of("ip", "netns", "delete", name));
            }
        }
        exec(List.of("ip", "link", "delete", run + "t"));
    }

    /** 10.213.X for X from the pid, the first no route of this namespace already covers. */
    private static String freeSubnet(long pid) {
        for (int i = 0; i < 250; i++) {
            String subnet = "10.213." + (1 + (pid + i) % 250);
            String routes = exec(List.of("ip", "-4", "route", "show", "to", "match", subnet + ".1")).out();
            boolean taken = routes.lines().anyMatch(l -> !l.startsWith("default"));
            if (!taken) {
                return subnet;
            }
        }
        throw new IllegalStateException("no free /24 in 10.213.0.0/16 on this host");
    }

    private static boolean onPath(String tool) {
        for (String dir : (System.getenv().getOrDefault("PATH", "/usr/bin") + ":/usr/sbin:/sbin").split(":")) {
            if (Files.isExecutable(Path.of(dir, tool))) {
                return true;
            }
        }
        return false;
    }

    /** Exit code and output (stdout and stderr together) of a command. */
    public record Result(int code, String out) {
    }

    private static Result exec(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                return new Result(-1, out + " (timed out)");
            }
            return new Result(p.exitValue(), out);
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }
}
