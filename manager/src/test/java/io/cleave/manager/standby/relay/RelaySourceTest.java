package io.cleave.manager.standby.relay;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

class RelaySourceTest {

    @Test
    void everySavingGivesTheAddressAndSaysWhetherItChanged(@TempDir Path state) throws Exception {
        RelaySource.Kept first = RelaySource.save(state, "127.0.0.5");
        assertThat(first.address()).isEqualTo(InetAddress.getByName("127.0.0.5"));
        assertThat(first.changed()).isTrue();
        // The same address again: not written, but still given, so a proxy started meanwhile can be told it.
        RelaySource.Kept again = RelaySource.save(state, "127.0.0.5");
        assertThat(again.address()).isEqualTo(first.address());
        assertThat(again.changed()).isFalse();
        assertThat(RelaySource.of(state)).contains(first.address());
        assertThat(RelaySource.save(state, "127.0.0.6").changed()).isTrue();
        assertThat(RelaySource.of(state)).contains(InetAddress.getByName("127.0.0.6"));
    }
}
