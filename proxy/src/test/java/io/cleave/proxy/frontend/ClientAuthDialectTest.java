package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.packet.server.AuthMoreData;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ClientAuthDialectTest {

    private static final Map<String, String> CONNECTOR_J = Map.of("_client_name", "MySQL Connector/J", "_client_version", "9.7.0");
    private static final Map<String, String> MARIADB_JDBC = Map.of("_client_name", "MariaDB Connector/J");

    @Test
    void connectorJReadingMariaDbsReplicationPrefixExpectsTheOldWays() {
        ClientAuthDialect old = new ClientAuthDialect(false, false);
        assertThat(ClientAuthDialect.of("5.5.5-10.11.19-MariaDB-0+deb12u1-log", CONNECTOR_J)).isEqualTo(old);
        assertThat(ClientAuthDialect.of("5.5.5-10.6.12-MariaDB", CONNECTOR_J)).isEqualTo(old);
    }

    @Test
    void connectorJGoesByEachThreshold() {
        assertThat(ClientAuthDialect.of("5.5.16", CONNECTOR_J)).isEqualTo(new ClientAuthDialect(true, false));
        assertThat(ClientAuthDialect.of("8.0.5", CONNECTOR_J)).isEqualTo(ClientAuthDialect.STANDARD);
        assertThat(ClientAuthDialect.of("11.4.5-MariaDB", CONNECTOR_J)).isEqualTo(ClientAuthDialect.STANDARD);
        assertThat(ClientAuthDialect.of("8.4.3", CONNECTOR_J)).isEqualTo(ClientAuthDialect.STANDARD);
    }

    @Test
    void otherClientsAlwaysMarkAndUseOaep() {
        assertThat(ClientAuthDialect.of("5.5.5-10.11.19-MariaDB", MARIADB_JDBC)).isEqualTo(ClientAuthDialect.STANDARD);
        assertThat(ClientAuthDialect.of("5.5.5-10.11.19-MariaDB", Map.of())).isEqualTo(ClientAuthDialect.STANDARD);
    }

    @Test
    void unmarkedDataIsTheBytesAlone() {
        AuthMoreData fast = new AuthMoreData(new byte[] {AuthMoreData.FAST_AUTH_SUCCESS});
        ByteBuf marked = Unpooled.buffer();
        ByteBuf unmarked = Unpooled.buffer();
        ClientAuthDialect.STANDARD.write(fast, marked);
        new ClientAuthDialect(false, false).write(fast, unmarked);
        assertThat(bytes(marked)).containsExactly(0x01, 0x03);
        assertThat(bytes(unmarked)).containsExactly(0x03);
    }

    private static byte[] bytes(ByteBuf buf) {
        byte[] out = new byte[buf.readableBytes()];
        buf.readBytes(out);
        buf.release();
        return out;
    }
}
