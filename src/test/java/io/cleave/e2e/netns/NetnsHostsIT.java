package io.cleave.e2e.netns;

import io.cleave.e2e.support.NetnsHosts;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** The namespace hosts the failover tests stand on: addresses, reachability, a link down, an nftables partition. */
class NetnsHostsIT {

    @Test
    void hostsReachEachOtherUntilALinkGoesDownOrADropRuleCutsThem() throws Exception {
        NetnsHosts.assumeUsable();
        Path dir = Files.createTempDirectory("cleave-netns-");
        try (NetnsHosts net = NetnsHosts.create(List.of("x", "y", "z"), 2)) {
            String x = net.address("x");
            // Something listening in x: one etcd member on x's address only.
            Process etcd = new ProcessBuilder(net.inHost("x", List.of("etcd", "--name", "m", "--data-dir",
                    dir.resolve("m").toString(), "--listen-client-urls", "http://" + x + ":2379", "--advertise-client-urls",
                    "http://" + x + ":2379", "--listen-peer-urls", "http://" + x + ":2380")))
                    .redirectErrorStream(true).redirectOutput(dir.resolve("etcd.log").toFile()).start();
            try {
                awaitReachable(x, 2379);
                assertThat(reachable(net, "y", x)).as("y reaches x").isTrue();
                assertThat(net.pids("x")).contains(etcd.pid());

                net.partition("x", List.of("y"));
                assertThat(reachable(net, "y", x)).as("y cut from x by the drop rule").isFalse();
                assertThat(reachable(net, "z", x)).as("z still reaches x").isTrue();
                assertThat(canConnect(x, 2379)).as("the test still reaches x").isTrue();
                net.heal("x");
                assertThat(reachable(net, "y", x)).as("y reaches x once the rule is gone").isTrue();

                net.link("x", false);
                assertThat(reachable(net, "z", x)).as("z cut off from x, whose link is down").isFalse();
                assertThat(canConnect(x, 2379)).as("the test cut off from x").isFalse();
                net.link("x", true);
                awaitReachable(x, 2379);

                assertThat(net.killAll("x")).isEqualTo(1);
                assertThat(etcd.waitFor(10, TimeUnit.SECONDS)).as("x's process killed").isTrue();
            } finally {
                etcd.destroyForcibly();
            }
        } finally {
            io.cleave.e2e.support.CleaveTestHome.deleteTree(dir);
        }
        assertThat(new ProcessBuilder("ip", "netns", "list").start().getInputStream().readAllBytes())
                .as("no namespace of this run left").asString().doesNotContain("clv" + ProcessHandle.current().pid() + "-");
    }

    private static boolean reachable(NetnsHosts net, String from, String address) {
        return net.run(from, List.of("timeout", "2", "bash", "-c", "exec 3<>/dev/tcp/" + address + "/2379")).code() == 0;
    }

    private static boolean canConnect(String host, int port) {
        try (Socket s = new Socket()) {
            s.connect(new InetSocketAddress(host, port), 1000);
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    private static void awaitReachable(String host, int port) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (!canConnect(host, port)) {
            assertThat(System.nanoTime()).as("%s:%d listens within 30 s", host, port).isLessThan(deadline);
            Thread.sleep(100);
        }
    }
}
