package io.cleave.bench.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.cleave.bench.compare.Access;
import io.cleave.bench.compare.Configuration;
import io.cleave.bench.compare.Transport;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ProxyOverheadCommandTest {

    @Test
    void withoutProxyTransportsCleaveIsOneConfigurationOnTheDefault() {
        List<Configuration> configurations = ProxyOverheadCommand.cleave(Transport.UNIX, List.of());

        assertThat(configurations).singleElement().satisfies(c -> {
            assertThat(c.label()).isEqualTo("Cleave proxy, client over Unix socket");
            assertThat(c.proxyOptions()).isEmpty();
        });
    }

    @Test
    void eachProxyTransportIsAConfigurationWithItsOwnSetting() {
        List<Configuration> configurations = ProxyOverheadCommand.cleave(Transport.TCP, List.of("epoll", " io_uring"));

        assertThat(configurations).extracting(Configuration::label).containsExactly(
            "Cleave proxy on epoll, client over TCP", "Cleave proxy on io_uring, client over TCP");
        assertThat(configurations).extracting(Configuration::proxyOptions).containsExactly(
            Map.of("transport", "epoll"), Map.of("transport", "io_uring"));
        assertThat(configurations).allSatisfy(c -> {
            assertThat(c.access()).isEqualTo(Access.PROXY);
            assertThat(c.transport()).isEqualTo(Transport.TCP);
        });
    }
}
