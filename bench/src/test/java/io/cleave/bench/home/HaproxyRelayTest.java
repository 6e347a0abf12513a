package io.cleave.bench.home;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class HaproxyRelayTest {

    @Test
    void relaysBothListenersToTheShardsSocketInTcpModeOnOneThread() {
        String config = HaproxyRelay.config(4000, Path.of("/tmp/h/relay.sock"), Path.of("/tmp/h/run/shard-0.sock"));

        assertThat(config).contains("    nbthread 1\n", "    mode tcp\n", "    bind 127.0.0.1:4000\n",
            "    bind unix@/tmp/h/relay.sock mode 666\n", "    server shard0 unix@/tmp/h/run/shard-0.sock\n");
    }
}
