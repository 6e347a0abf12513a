package io.cleave.proxy.proxyprotocol;

import io.netty.channel.unix.DomainSocketAddress;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class TrustedNetworksTest {

    private static InetSocketAddress at(String ip) {
        return new InetSocketAddress(ip, 1);
    }

    @Test
    void networksAddressesAndLocalhostAsMariaDbListsThem() {
        TrustedNetworks t = TrustedNetworks.parse("10.0.0.0/8, 192.168.1.7 ,fd00::/8, localhost");
        assertThat(t.trusts(at("10.255.0.1"))).isTrue();
        assertThat(t.trusts(at("11.0.0.1"))).isFalse();
        assertThat(t.trusts(at("192.168.1.7"))).isTrue();
        assertThat(t.trusts(at("192.168.1.8"))).isFalse();
        assertThat(t.trusts(at("fd12::1"))).isTrue();
        assertThat(t.trusts(at("fe80::1"))).isFalse();
        assertThat(t.trusts(new DomainSocketAddress("/tmp/proxy.sock"))).isTrue();
        assertThat(TrustedNetworks.parse("10.0.0.0/8").trusts(new DomainSocketAddress("/tmp/x"))).isFalse();
    }

    @Test
    void anOddPrefixMasksWithinAByte() {
        TrustedNetworks t = TrustedNetworks.parse("172.16.0.0/12");
        assertThat(t.trusts(at("172.31.255.255"))).isTrue();
        assertThat(t.trusts(at("172.32.0.0"))).isFalse();
    }

    @Test
    void starTrustsEveryone() {
        TrustedNetworks t = TrustedNetworks.parse("*");
        assertThat(t.trusts(at("8.8.8.8"))).isTrue();
        assertThat(t.trusts(at("2001:db8::1"))).isTrue();
    }

    @Test
    void emptyTrustsNoOneAndAnAddressCanBeAdded() throws Exception {
        TrustedNetworks t = TrustedNetworks.parse("");
        assertThat(t.isEmpty()).isTrue();
        assertThat(t.trusts(at("127.0.0.1"))).isFalse();
        TrustedNetworks with = t.with(InetAddress.getByName("10.0.0.2"));
        assertThat(with.trusts(at("10.0.0.2"))).isTrue();
        assertThat(with.trusts(at("10.0.0.3"))).isFalse();
        assertThat(with.with(InetAddress.getByName("10.0.0.2"))).isSameAs(with);
    }

    @Test
    void entriesThatAreNoAddressAreRefusedByName() {
        assertThatThrownBy(() -> TrustedNetworks.parse("10.0.0.0/8, db-host")).hasMessageContaining("'db-host'");
        assertThatThrownBy(() -> TrustedNetworks.parse("10.0.0.0/33")).hasMessageContaining("0..32");
        assertThatThrownBy(() -> TrustedNetworks.parse("::1/129")).hasMessageContaining("0..128");
        assertThatThrownBy(() -> TrustedNetworks.parse("10.0.0.0/x")).hasMessageContaining("prefix");
    }
}
