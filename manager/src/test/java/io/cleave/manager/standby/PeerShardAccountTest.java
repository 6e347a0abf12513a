package io.cleave.manager.standby;

import io.cleave.manager.daemon.ShardEndpoint;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PeerShardAccountTest {

    private static final ShardEndpoint SHARD = new ShardEndpoint(0, "shard0", Path.of("/run/b/shard0.sock"),
            "10.77.0.3", 3307, "cleave", "bsecret");
    private static final List<Attachment.ShardAddress> ADDRESSES = List.of(new Attachment.ShardAddress(0, "10.77.0.3", 3307));
    private static final Map<Integer, String> SOCKETS = Map.of(0, "/run/b/shard0.sock");

    @Test
    void aPeerOnLoopbackOrThatDoesNotSayNeedsNoAccount() {
        assertThat(PeerShardAccount.forPeer("127.0.0.1", "pairsecret")).isEmpty();
        assertThat(PeerShardAccount.forPeer("localhost", "pairsecret")).isEmpty();
        assertThat(PeerShardAccount.forPeer(null, "pairsecret")).isEmpty();
    }

    @Test
    void aPeerOnAnotherHostGetsTheShardAccountsNameBoundToItsAddressWithThePairsSecret() {
        PeerShardAccount peer = PeerShardAccount.forPeer("10.77.0.2", "pairsecret").orElseThrow();
        assertThat(peer.name()).isEqualTo("'cleave'@'10.77.0.2'");
        assertThat(peer.statements()).containsExactly(
                "CREATE USER IF NOT EXISTS 'cleave'@'10.77.0.2' IDENTIFIED BY 'pairsecret'",
                "ALTER USER 'cleave'@'10.77.0.2' IDENTIFIED BY 'pairsecret'",
                "GRANT ALL PRIVILEGES ON *.* TO 'cleave'@'10.77.0.2' WITH GRANT OPTION");
    }

    @Test
    void aHostNameIsRefusedAsShardsDoNotResolveNames() {
        assertThatThrownBy(() -> PeerShardAccount.forPeer("host-a.example", "pairsecret"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("advertise_host");
    }

    @Test
    void theTakeOverAnswersALoopbackPeerWithTheShardAccountAndSockets() {
        TakeOverAnswer answer = TakeOver.answer(2, SHARD, ADDRESSES, SOCKETS, Optional.empty(), null);
        assertThat(answer.password()).isEqualTo("bsecret");
        assertThat(answer.sockets()).isEqualTo(SOCKETS);
    }

    @Test
    void theTakeOverAnswersAPeerOnAnotherHostWithItsOwnAccountOverTcp() {
        TakeOverAnswer answer = TakeOver.answer(2, SHARD, ADDRESSES, SOCKETS,
                PeerShardAccount.forPeer("10.77.0.2", "pairsecret"), "-----BEGIN CERTIFICATE-----");
        assertThat(answer.user()).isEqualTo("cleave");
        assertThat(answer.password()).as("the pair's secret, not this home's shard secret").isEqualTo("pairsecret");
        assertThat(answer.sockets()).isEmpty();
        assertThat(answer.shards()).isEqualTo(ADDRESSES);
        assertThat(answer.shardCertificate()).as("the old primary's replicas verify this home's shards with it")
                .isEqualTo("-----BEGIN CERTIFICATE-----");
    }

    @Test
    void theShardsTakeThePeersProxyHeadersWhileItMayForwardAndNotAfter() {
        assertThat(PeerShardAccount.networks("127.0.0.1", Optional.of("10.77.0.2"))).isEqualTo("127.0.0.1,10.77.0.2");
        assertThat(PeerShardAccount.networks("127.0.0.1", Optional.empty())).isEqualTo("127.0.0.1");
        assertThat(PeerShardAccount.networks("127.0.0.1, 10.77.0.2", "10.77.0.2", true)).as("listed once")
                .isEqualTo("127.0.0.1,10.77.0.2");
        assertThat(PeerShardAccount.networks("127.0.0.1,10.77.0.2,192.168.0.0/16", "10.77.0.2", false))
                .as("the operator's own entries stay").isEqualTo("127.0.0.1,192.168.0.0/16");
    }

    @Test
    void aTakeOverRemembersThePeerForTheShardsMyCnfAndAHomeThatForgetsItWritesLoopbackOnly(@org.junit.jupiter.api.io.TempDir
                                                                                            Path dir) throws Exception {
        io.cleave.manager.home.CleaveHome home = new io.cleave.manager.home.CleaveHome(dir);
        java.nio.file.Files.createDirectories(home.state());
        assertThat(PeerShardAccount.remembered(home)).isEmpty();
        PeerShardAccount.forPeer("10.77.0.2", "pairsecret").orElseThrow().remember(home);
        assertThat(PeerShardAccount.remembered(home)).contains("10.77.0.2");
        // Nothing to open when no shard is named: the address is forgotten all the same.
        PeerShardAccount.forget(home, null, List.of());
        assertThat(PeerShardAccount.remembered(home)).isEmpty();
    }
}
