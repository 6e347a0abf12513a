package io.cleave.bench.chaos;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class PrometheusTextTest {
    private static final String PAGE = """
        # HELP cleave_proxy_backend_connections Backend connections to each shard by state
        # TYPE cleave_proxy_backend_connections gauge
        cleave_proxy_backend_connections{shard="0",state="idle"} 3.0
        cleave_proxy_backend_connections{shard="0",state="in_use"} 1.0
        cleave_proxy_backend_connections{shard="1",state="in_use"} 0.0
        cleave_proxy_backend_connections{state="idle",shard="1"} 2.0
        cleave_proxy_client_connections 14.0
        """;

    @Test
    void samplesAreSummedByLabelsInAnyOrder() {
        PrometheusText m = PrometheusText.parse(PAGE);
        assertThat(m.sum("cleave_proxy_client_connections", Map.of())).isEqualTo(14.0);
        assertThat(m.sum("cleave_proxy_backend_connections", Map.of("state", "idle"))).isEqualTo(5.0);
        assertThat(m.byLabel("cleave_proxy_backend_connections", "shard", Map.of("state", "in_use")))
            .containsExactly(Map.entry("0", 1.0), Map.entry("1", 0.0));
        assertThat(m.sum("cleave_nothing", Map.of())).isZero();
    }
}
