package io.cleave.bench.sysbench;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SysbenchTargetTest {

    private final SysbenchTarget tcp = new SysbenchTarget("127.0.0.1", 3306, "cleave", "pw", "sbtest");

    @Test
    void tcpNamesHostAndPort() {
        assertThat(tcp.arguments()).containsExactly("--mysql-host=127.0.0.1", "--mysql-port=3306",
            "--mysql-user=cleave", "--mysql-password=pw", "--mysql-db=sbtest");
    }

    @Test
    void aUnixSocketNeedsLocalhostOrTheClientLibraryGoesOverTcp() {
        assertThat(tcp.overSocket(Path.of("/tmp/x/shard-0.sock")).arguments()).containsExactly("--mysql-host=localhost",
            "--mysql-socket=/tmp/x/shard-0.sock", "--mysql-user=cleave", "--mysql-password=pw", "--mysql-db=sbtest");
    }

    @Test
    void anotherPortKeepsTheAccount() {
        assertThat(tcp.overSocket(Path.of("/s")).onPort(4000).arguments()).startsWith("--mysql-host=127.0.0.1",
            "--mysql-port=4000", "--mysql-user=cleave");
    }
}
