package io.cleave.bench.home;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class HomeStatusTest {

    @Test
    void readsPidsPortsAndVersionsFromStatusJson() {
        HomeStatus s = HomeStatus.parse("""
            {"daemonPid": 15224, "home": "/tmp/cb1/h", "serverBinary": "MariaDB 11.4.5 (embedded)", "ready": true,
             "proxy": "listening on 127.0.0.1:24500",
             "instances": [
               {"index": 0, "name": "shard-0", "state": "RUNNING", "pid": 15291, "port": 24510,
                "serverVersion": "11.4.5-MariaDB-log", "lastError": null},
               {"index": 1, "name": "shard-1", "state": "STARTING", "pid": 15292, "port": 24511,
                "serverVersion": "11.4.5-MariaDB-log"}]}
            """);
        assertThat(s.daemonPid()).isEqualTo(15224);
        assertThat(s.shardPids()).containsExactly(15291L, 15292L);
        assertThat(s.serverBinary()).isEqualTo("MariaDB 11.4.5 (embedded)");
        assertThat(s.instances().get(0).serverVersion()).isEqualTo("11.4.5-MariaDB-log");
        assertThat(s.instances().get(1).port()).isEqualTo(24511);
        assertThat(s.allRunning()).isFalse();
    }

    @Test
    void proxyStatementsAreQueriesAndExecutesOfEveryRoute() {
        String metrics = """
            # HELP cleave_proxy_queries_total Client commands by command and how they were routed
            # TYPE cleave_proxy_queries_total counter
            cleave_proxy_queries_total{command="query",route="local"} 342.0
            cleave_proxy_queries_total{command="query",route="single_shard"} 8.0
            cleave_proxy_queries_total{command="stmt_execute",route="multi_shard"} 684.0
            cleave_proxy_queries_total{command="stmt_execute",route="single_shard"} 9484.0
            cleave_proxy_queries_total{command="stmt_prepare",route="single_shard"} 40.0
            cleave_proxy_queries_total{command="ping",route="local"} 3.0
            cleave_proxy_shard_latency_seconds_count{shard="0"} 777.0
            """;
        assertThat(ProxyCounters.statements(metrics)).isEqualTo(342 + 8 + 684 + 9484);
    }
}
