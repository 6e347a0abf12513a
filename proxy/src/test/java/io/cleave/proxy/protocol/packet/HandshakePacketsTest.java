package io.cleave.proxy.protocol.packet;

import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.Hex;
import io.cleave.proxy.protocol.MalformedPacketException;
import io.cleave.proxy.protocol.packet.client.ComChangeUser;
import io.cleave.proxy.protocol.packet.client.HandshakeResponse41;
import io.cleave.proxy.protocol.packet.server.HandshakeV10;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HandshakePacketsTest {

    /** The first packet of MariaDB 11.4.5, captured on loopback. */
    static final String MARIADB_HANDSHAKE = "0a31312e342e352d4d61726961444200260000006579526b4760306800fef7080200"
            + "ff81150000000000001d0000003e3a49414a3051276b674359006d7973716c5f6e61746976655f70617373776f726400";

    /** libmariadb 3.4.4 (the mariadb command-line client) answering it as user cleave, database test1. */
    static final String LIBMARIADB_RESPONSE = "8ca2bf000000000121000000000000000000000000000000000000001d000000636c"
            + "6561766500142df325932eebfc2d89ec29c40b59319e1bc8f56e7465737431006d7973716c5f6e61746976655f7061737377"
            + "6f7264007d035f6f73054c696e75780c5f636c69656e745f6e616d650a6c69626d617269616462045f70696404383037350f5f"
            + "636c69656e745f76657273696f6e05332e342e34095f706c6174666f726d067838365f36340c70726f6772616d5f6e616d65056d"
            + "7973716c0c5f7365727665725f686f7374093132372e302e302e31";

    @Test
    void decodesMariaDbHandshake() {
        HandshakeV10 hs = HandshakeV10.decode(Hex.payload(MARIADB_HANDSHAKE));
        assertThat(hs.serverVersion()).isEqualTo("11.4.5-MariaDB");
        assertThat(hs.connectionId()).isEqualTo(0x26);
        assertThat(new String(hs.authPluginData(), StandardCharsets.US_ASCII)).isEqualTo("eyRkG`0h>:IAJ0Q'kgCY");
        assertThat(hs.capabilities().protocol41()).isTrue();
        assertThat(hs.capabilities().pluginAuth()).isTrue();
        assertThat(hs.capabilities().deprecateEof()).isTrue();
        assertThat(hs.capabilities().ssl()).isFalse();
        assertThat(hs.collationId()).isEqualTo(8);
        assertThat(hs.statusFlags()).isEqualTo(2);
        assertThat(hs.authPluginName()).isEqualTo("mysql_native_password");
    }

    @Test
    void handshakeRoundTrips() {
        byte[] scramble = "abcdefghij0123456789".getBytes(StandardCharsets.US_ASCII);
        HandshakeV10 ours = new HandshakeV10("11.4.5-MariaDB-cleave", 77, scramble, Capabilities.PROXY_SERVER, 45,
                2, "caching_sha2_password");
        ByteBuf buf = Unpooled.buffer();
        ours.write(buf);
        HandshakeV10 back = HandshakeV10.decode(buf);
        assertThat(back.serverVersion()).isEqualTo("11.4.5-MariaDB-cleave");
        assertThat(back.connectionId()).isEqualTo(77);
        assertThat(back.authPluginData()).isEqualTo(scramble);
        assertThat(back.capabilities()).isEqualTo(Capabilities.PROXY_SERVER);
        assertThat(back.collationId()).isEqualTo(45);
        assertThat(back.authPluginName()).isEqualTo("caching_sha2_password");
    }

    @Test
    void decodesLibmariadbResponse() {
        HandshakeResponse41 r = HandshakeResponse41.decode(Hex.payload(LIBMARIADB_RESPONSE));
        assertThat(r.username()).isEqualTo("cleave");
        assertThat(r.database()).isEqualTo("test1");
        assertThat(r.authPluginName()).isEqualTo("mysql_native_password");
        assertThat(Hex.of(Unpooled.wrappedBuffer(r.authResponse()))).isEqualTo("2df325932eebfc2d89ec29c40b59319e1bc8f56e");
        assertThat(r.collationId()).isEqualTo(0x21);
        assertThat(r.maxPacketSize()).isEqualTo(1L << 24);
        assertThat(r.capabilities().connectWithDb()).isTrue();
        assertThat(r.capabilities().deprecateEof()).isFalse();
        assertThat(r.capabilities().multiResults()).isTrue();
        assertThat(r.attributes()).containsEntry("_client_name", "libmariadb").containsEntry("program_name", "mysql")
                .containsEntry("_server_host", "127.0.0.1");
        assertThat(HandshakeResponse41.isSslRequest(Hex.payload(LIBMARIADB_RESPONSE))).isFalse();
    }

    @Test
    void responseRoundTripsWithLenencAuthData() {
        Capabilities caps = new Capabilities(Capabilities.PROTOCOL_41 | Capabilities.SECURE_CONNECTION
                | Capabilities.PLUGIN_AUTH | Capabilities.PLUGIN_AUTH_LENENC_CLIENT_DATA | Capabilities.CONNECT_ATTRS
                | Capabilities.CONNECT_WITH_DB);
        HandshakeResponse41 r = new HandshakeResponse41(caps, 1 << 30, 45, "app", new byte[32], "shop",
                "caching_sha2_password", Map.of("program_name", "x"));
        ByteBuf buf = Unpooled.buffer();
        r.write(buf);
        HandshakeResponse41 back = HandshakeResponse41.decode(buf);
        assertThat(back.username()).isEqualTo("app");
        assertThat(back.authResponse()).hasSize(32);
        assertThat(back.database()).isEqualTo("shop");
        assertThat(back.authPluginName()).isEqualTo("caching_sha2_password");
        assertThat(back.attributes()).containsExactlyEntriesOf(Map.of("program_name", "x"));
    }

    @Test
    void recognizesSslRequest() {
        ByteBuf buf = Unpooled.buffer();
        HandshakeResponse41.writeSslRequest(buf, new Capabilities(Capabilities.PROTOCOL_41), 1 << 24, 45);
        assertThat(buf.readableBytes()).isEqualTo(HandshakeResponse41.FIXED_PART);
        assertThat(HandshakeResponse41.isSslRequest(buf)).isTrue();
    }

    @Test
    void refusesPre41Clients() {
        ByteBuf old = Hex.payload("0000000000000000000000000000000000000000000000000000000000000000");
        assertThatThrownBy(() -> HandshakeResponse41.decode(old)).isInstanceOf(MalformedPacketException.class)
                .hasMessageContaining("4.1");
    }

    @Test
    void comChangeUserWrittenAndDecoded() {
        Capabilities caps = new Capabilities(Capabilities.PROTOCOL_41 | Capabilities.SECURE_CONNECTION
                | Capabilities.PLUGIN_AUTH | Capabilities.CONNECT_ATTRS);
        byte[] token = new byte[20];
        for (int i = 0; i < token.length; i++) {
            token[i] = (byte) (i + 1);
        }
        ComChangeUser packet = new ComChangeUser("nat", token, "app", 45, "mysql_native_password", Map.of("k", "v"));
        ByteBuf out = Unpooled.buffer();
        packet.write(out, caps);
        assertThat(Hex.of(out)).isEqualTo("11" + "6e617400" + "14" + "0102030405060708090a0b0c0d0e0f1011121314"
                + "61707000" + "2d00" + "6d7973716c5f6e61746976655f70617373776f726400" + "04016b0176");
        ComChangeUser back = ComChangeUser.decode(out, caps);
        assertThat(back.username()).isEqualTo("nat");
        assertThat(back.authResponse()).isEqualTo(token);
        assertThat(back.database()).isEqualTo("app");
        assertThat(back.collationId()).isEqualTo(45);
        assertThat(back.authPluginName()).isEqualTo("mysql_native_password");
        assertThat(back.attributes()).containsExactly(Map.entry("k", "v"));
    }
}
