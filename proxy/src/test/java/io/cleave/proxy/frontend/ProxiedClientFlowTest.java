package io.cleave.proxy.frontend;

import io.cleave.proxy.protocol.Frames;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import io.cleave.proxy.proxyprotocol.PeerChannel;
import io.cleave.proxy.proxyprotocol.ProxyHeaders;
import io.cleave.proxy.proxyprotocol.ProxyProtocolPolicy;
import io.cleave.proxy.proxyprotocol.TrustedNetworks;
import io.netty.buffer.ByteBuf;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Clients behind a relay or balancer that sends a PROXY protocol header: the proxy sees them at their own address. */
class ProxiedClientFlowTest {

    private final FakeProxy proxy = new FakeProxy();

    @Test
    void aClientRelayedFromATrustedPeerIsSeenAtTheAddressItsHeaderNames() throws Exception {
        proxy.runtime.clientProxyProtocol(new ProxyProtocolPolicy(TrustedNetworks.parse("10.0.0.0/8"), false));
        EmbeddedChannel relayed = PeerChannel.from("10.0.0.2", 7000, new FrontendInitializer(proxy.runtime));
        relayed.writeInbound(ProxyHeaders.v2("192.0.2.44", 52000, "10.0.0.1", 6033));
        EmbeddedClient client = proxy.connect(relayed);

        EmbeddedChannel direct = PeerChannel.from("10.0.0.2", 7001, new FrontendInitializer(proxy.runtime));
        EmbeddedClient other = proxy.connect(direct);

        List<List<String>> rows = proxy.run(client, "SHOW PROCESSLIST").rows();
        assertThat(rows).extracting(r -> r.get(2)).containsExactlyInAnyOrder("192.0.2.44:52000", "10.0.0.2:7001");
        other.disconnect();
    }

    @Test
    void aHeaderFromAPeerNotTrustedGetsAnErrorPacketAnsweringTheLogin() {
        proxy.runtime.clientProxyProtocol(new ProxyProtocolPolicy(TrustedNetworks.parse("10.0.0.0/8"), false));
        EmbeddedChannel ch = PeerChannel.from("192.168.5.5", 7000, new FrontendInitializer(proxy.runtime));
        ch.writeInbound(ProxyHeaders.v1("PROXY TCP4 192.0.2.44 192.168.5.1 52000 6033\r\n"));
        ch.runPendingTasks();
        ByteBuf greeting = ch.readOutbound();
        ByteBuf error = ch.readOutbound();
        try {
            assertThat(Frames.sequence(greeting)).isZero();
            assertThat(Frames.sequence(error)).as("the answer to the client's handshake response (1)").isEqualTo(2);
            ErrPacket refused = ErrPacket.decode(Frames.payload(error));
            assertThat(refused.errorCode()).isEqualTo(1130);
            assertThat(refused.message()).contains("'192.168.5.5'").contains("proxy.proxy_protocol_networks");
        } finally {
            greeting.release();
            error.release();
        }
        assertThat(ch.isOpen()).isFalse();
    }

    @Test
    void withoutTrustedNetworksADirectClientLogsInAsBefore() {
        EmbeddedChannel ch = PeerChannel.from("10.0.0.2", 7000, new FrontendInitializer(proxy.runtime));
        EmbeddedClient client = proxy.connect(ch);
        assertThat(proxy.run(client, "SHOW PROCESSLIST").rows()).extracting(r -> r.get(2)).containsExactly("10.0.0.2:7000");
    }
}
