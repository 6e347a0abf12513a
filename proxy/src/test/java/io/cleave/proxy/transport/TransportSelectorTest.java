package io.cleave.proxy.transport;

import org.junit.jupiter.api.Test;

import java.util.EnumMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TransportSelectorTest {

    private final Map<Transport, Throwable> refused = new EnumMap<>(Transport.class);
    private final TransportSelector selector = new TransportSelector(refused::get);

    @Test
    void autoTakesTheFirstPreferredTransportWithoutNamingAnyOther() {
        TransportChoice choice = selector.choose(TransportSetting.AUTO);

        assertThat(choice.transport()).isEqualTo(TransportSelector.AUTO_ORDER.get(0));
        assertThat(choice.fellBack()).isFalse();
    }

    @Test
    void autoPassesOverWhatCannotRunAndSaysWhy() {
        refused.put(Transport.EPOLL, new UnsatisfiedLinkError("no netty_transport_native_epoll in java.library.path"));
        refused.put(Transport.IO_URING, new IllegalStateException("failed to create io_uring ring fd",
                new RuntimeException("Operation not permitted")));

        TransportChoice choice = selector.choose(TransportSetting.AUTO);

        assertThat(choice.transport()).isEqualTo(Transport.NIO);
        assertThat(choice.passedOver())
                .contains("epoll: no netty_transport_native_epoll in java.library.path")
                .contains("io_uring: failed to create io_uring ring fd (Operation not permitted)");
    }

    @Test
    void autoWithoutTheFirstChoiceTakesTheNext() {
        Transport first = TransportSelector.AUTO_ORDER.get(0);
        refused.put(first, new IllegalStateException("kernel too old"));

        TransportChoice choice = selector.choose(TransportSetting.AUTO);

        assertThat(choice.transport()).isEqualTo(TransportSelector.AUTO_ORDER.get(1));
        assertThat(choice.passedOver()).isEqualTo(first + ": kernel too old");
    }

    @Test
    void aNamedTransportIsTakenAsAsked() {
        assertThat(selector.choose(TransportSetting.IO_URING).transport()).isEqualTo(Transport.IO_URING);
        assertThat(selector.choose(TransportSetting.EPOLL).transport()).isEqualTo(Transport.EPOLL);
        assertThat(selector.choose(TransportSetting.NIO).transport()).isEqualTo(Transport.NIO);
    }

    @Test
    void aNamedTransportThatCannotRunStopsTheStartWithItsCause() {
        refused.put(Transport.IO_URING, new IllegalStateException("io_uring_setup: Operation not permitted"));

        assertThatThrownBy(() -> selector.choose(TransportSetting.IO_URING))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("proxy.transport is io_uring")
                .hasMessageContaining("io_uring_setup: Operation not permitted")
                .hasMessageContaining("proxy.transport: auto");
    }

    @Test
    void settingsParseFromTheirConfigNamesOnly() {
        assertThat(TransportSetting.parse("io_uring")).isEqualTo(TransportSetting.IO_URING);
        assertThat(TransportSetting.parse("auto")).isEqualTo(TransportSetting.AUTO);
        assertThat(TransportSetting.parse("IO_URING")).isNull();
        assertThat(TransportSetting.parse("iouring")).isNull();
        assertThat(TransportSetting.choices()).isEqualTo("auto, epoll, io_uring, nio");
    }

    @Test
    void onlyNioLacksUnixSockets() {
        assertThat(Transport.EPOLL.hasDomainSockets()).isTrue();
        assertThat(Transport.IO_URING.hasDomainSockets()).isTrue();
        assertThat(Transport.NIO.hasDomainSockets()).isFalse();
    }

    @Test
    void thisHostAnswersForEveryTransport() {
        // Whatever this kernel allows, auto lands on something that runs, and nio always can.
        TransportChoice choice = TransportSelector.ofThisHost().choose(TransportSetting.AUTO);
        assertThat(TransportSelector.AUTO_ORDER).contains(choice.transport());
        assertThat(TransportSelector.ofThisHost().choose(TransportSetting.NIO).transport()).isEqualTo(Transport.NIO);
    }
}
