package io.cleave.proxy.proxyprotocol;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.embedded.EmbeddedChannel;
import org.junit.jupiter.api.Test;

import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ProxyProtocolGateTest {

    private static final ProxyProtocolPolicy TRUST_10 = new ProxyProtocolPolicy(TrustedNetworks.parse("10.0.0.0/8"), false);
    private static final String LOGIN = "\u0020\u0000\u0000\u0001the client's handshake response";

    /** What passed the gate: the bytes after it, and the refusal it fired. */
    private static final class Next extends ChannelInboundHandlerAdapter {
        final ByteBuf bytes = Unpooled.buffer();
        final List<ProxyHeaderRefused> refusals = new ArrayList<>();

        @Override
        public void channelRead(ChannelHandlerContext ctx, Object msg) {
            ByteBuf b = (ByteBuf) msg;
            bytes.writeBytes(b);
            b.release();
        }

        @Override
        public void userEventTriggered(ChannelHandlerContext ctx, Object evt) {
            if (evt instanceof ProxyHeaderRefused r) {
                refusals.add(r);
            }
        }

        String text() {
            return bytes.toString(StandardCharsets.ISO_8859_1);
        }
    }

    private static EmbeddedChannel channel(String peer, ProxyProtocolPolicy policy, Next next) {
        return PeerChannel.from(peer, 40000, new ProxyProtocolGate(policy), next);
    }

    private static ByteBuf text(String s) {
        return Unpooled.copiedBuffer(s, StandardCharsets.ISO_8859_1);
    }

    @Test
    void aVersion1HeaderFromATrustedPeerNamesTheClientAndTheRestPassesUntouched() {
        Next next = new Next();
        EmbeddedChannel ch = channel("10.1.2.3", TRUST_10, next);
        ch.writeInbound(ProxyHeaders.v1("PROXY TCP4 192.168.7.9 10.0.0.1 51234 6033\r\n" + LOGIN));
        assertThat(ClientEndpoint.of(ch)).isEqualTo(new InetSocketAddress("192.168.7.9", 51234));
        assertThat(ClientEndpoint.proxied(ch)).isTrue();
        assertThat(next.text()).isEqualTo(LOGIN);
        assertThat(next.refusals).isEmpty();
        assertThat(ch.pipeline().get(ProxyProtocolGate.class)).as("the gate left").isNull();
        ch.writeInbound(text("more"));
        assertThat(next.text()).isEqualTo(LOGIN + "more");
        ch.finishAndReleaseAll();
    }

    @Test
    void aVersion2HeaderSplitOverReadsNamesAnIpv6Client() throws Exception {
        Next next = new Next();
        EmbeddedChannel ch = channel("10.9.9.9", TRUST_10, next);
        ByteBuf header = ProxyHeaders.v2("2001:db8::7", 4242, "2001:db8::1", 6033);
        ch.writeInbound(header.readRetainedSlice(3));
        assertThat(next.text()).isEmpty();
        ch.writeInbound(header.readRetainedSlice(10));
        ch.writeInbound(Unpooled.wrappedBuffer(header, text(LOGIN)));
        assertThat(ClientEndpoint.of(ch)).isEqualTo(new InetSocketAddress("2001:db8::7", 4242));
        assertThat(next.text()).isEqualTo(LOGIN);
        ch.finishAndReleaseAll();
    }

    @Test
    void aVersion2LocalHeaderKeepsThePeersOwnAddress() {
        Next next = new Next();
        EmbeddedChannel ch = channel("10.1.2.3", TRUST_10, next);
        ch.writeInbound(Unpooled.wrappedBuffer(ProxyHeaders.v2Local(), text(LOGIN)));
        assertThat(ClientEndpoint.of(ch)).isEqualTo(new InetSocketAddress("10.1.2.3", 40000));
        assertThat(ClientEndpoint.proxied(ch)).isFalse();
        assertThat(next.text()).isEqualTo(LOGIN);
        ch.finishAndReleaseAll();
    }

    @Test
    void aHeaderFromAPeerNotTrustedIsRefusedAndNothingPasses() throws Exception {
        Next next = new Next();
        EmbeddedChannel ch = channel("172.16.0.5", TRUST_10, next);
        ch.writeInbound(Unpooled.wrappedBuffer(ProxyHeaders.v2("10.0.0.8", 1, "10.0.0.1", 6033), text(LOGIN)));
        assertThat(next.refusals).singleElement().satisfies(r -> assertThat(r.reason())
                .contains("'172.16.0.5'").contains("proxy.proxy_protocol_networks"));
        assertThat(ClientEndpoint.of(ch)).isEqualTo(new InetSocketAddress("172.16.0.5", 40000));
        ch.writeInbound(text(LOGIN));
        assertThat(next.text()).as("nothing after a refused header reaches the session").isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void aHeaderIsRefusedWhenNoNetworkIsTrusted() {
        Next next = new Next();
        EmbeddedChannel ch = channel("127.0.0.1", ProxyProtocolPolicy.OFF, next);
        ch.writeInbound(ProxyHeaders.v1("PROXY TCP4 1.2.3.4 127.0.0.1 5 6033\r\n"));
        assertThat(next.refusals).hasSize(1);
        ch.finishAndReleaseAll();
    }

    @Test
    void noHeaderFromATrustedPeerIsItsOwnAddressUnlessOneIsRequired() {
        Next next = new Next();
        EmbeddedChannel ch = channel("10.1.2.3", TRUST_10, next);
        ch.writeInbound(text(LOGIN));
        assertThat(next.text()).isEqualTo(LOGIN);
        assertThat(ClientEndpoint.of(ch)).isEqualTo(new InetSocketAddress("10.1.2.3", 40000));
        ch.finishAndReleaseAll();

        Next refused = new Next();
        EmbeddedChannel required = channel("10.1.2.3", new ProxyProtocolPolicy(TRUST_10.trusted(), true), refused);
        required.writeInbound(text(LOGIN));
        assertThat(refused.text()).isEmpty();
        assertThat(refused.refusals).singleElement().satisfies(r -> assertThat(r.reason())
                .contains("sent no PROXY protocol header"));
        required.finishAndReleaseAll();
    }

    @Test
    void noHeaderFromAnyOtherPeerPassesEvenWhenRequiredOfTrustedOnes() {
        Next next = new Next();
        EmbeddedChannel ch = channel("192.168.1.1", new ProxyProtocolPolicy(TRUST_10.trusted(), true), next);
        ch.writeInbound(text(LOGIN));
        assertThat(next.text()).isEqualTo(LOGIN);
        assertThat(next.refusals).isEmpty();
        ch.finishAndReleaseAll();
    }

    @Test
    void aMalformedHeaderFromATrustedPeerClosesTheConnection() {
        Next next = new Next();
        EmbeddedChannel ch = channel("10.1.2.3", TRUST_10, next);
        ch.writeInbound(ProxyHeaders.v1("PROXY TCP4 not-an-address 10.0.0.1 1 2\r\n" + LOGIN));
        assertThat(ch.isOpen()).isFalse();
        assertThat(next.text()).isEmpty();
        assertThat(ClientEndpoint.proxied(ch)).isFalse();
        ch.finishAndReleaseAll();
    }
}
