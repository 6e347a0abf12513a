package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.packet.server.ErrPacket;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A home fenced as its standby pair's primary (it lost the lease, or a newer primary exists): the proxy refuses
 * statements with a clear error, and a cross-shard commit under way sends neither its decision nor a branch's
 * XA COMMIT once the fence is up, since a read-only shard still takes XA COMMIT.
 */
class FencedPrimaryFlowTest {

    private static final String REASON = "the primary is now http://b:6134 (epoch 3)";

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    @Test
    void aFencedProxyRefusesStatementsNamingTheNewPrimary() {
        proxy.shard(0).answer("SELECT v FROM t WHERE id = 5", ShardReply.ok());
        assertThat(proxy.run(client, "SELECT v FROM t WHERE id = 5").isOk()).isTrue();

        proxy.runtime.primaryFence().fence(REASON);
        ClientReply refused = proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5");

        assertThat(refused.isOk()).isFalse();
        assertThat(refused.error().errorCode()).isEqualTo(1290);
        assertThat(refused.error().sqlState()).isEqualTo("HY000");
        assertThat(refused.error().message()).contains("fenced").contains("http://b:6134");
        assertThat(proxy.shard(0).queries()).doesNotContain("UPDATE t SET v = 'a' WHERE id = 5");

        proxy.runtime.primaryFence().lift();
        assertThat(proxy.run(client, "SELECT v FROM t WHERE id = 5").isOk()).as("served again once lifted").isTrue();
    }

    @Test
    void aFencedProxyRefusesALoginNamingTheNewPrimaryWithoutAskingAShard() {
        // The default shard does not answer (its connections wait behind commits the lost standby
        // will never acknowledge): a login that asked it whether the database exists would hang.
        proxy.shard(0).holdStartingWith("DO 0");
        proxy.runtime.primaryFence().fence(REASON);

        ErrPacket refused = EmbeddedClient.refusal(proxy.runtime, FakeProxy.CLIENT, FakeProxy.APP.user(), "app",
                channel -> proxy.pump());

        assertThat(refused).as("the login is answered").isNotNull();
        assertThat(refused.errorCode()).isEqualTo(1290);
        assertThat(refused.message()).contains("fenced").contains("http://b:6134");
        assertThat(proxy.shard(0).queries()).doesNotContain("DO 0");

        proxy.runtime.primaryFence().lift();
        assertThat(EmbeddedClient.refusal(proxy.runtime, FakeProxy.CLIENT, FakeProxy.APP.user(), "app", channel -> {
            proxy.pump();
            assertThat(proxy.shard(0).releaseHeld()).as("lifted, the login asks the shard").isEqualTo(1);
            proxy.pump();
        })).as("logins are taken again once lifted").isNull();
    }

    @Test
    void aProxyPastItsLeasesDeadlineRefusesOnItsOwn() {
        proxy.shard(0).answer("SELECT v FROM t WHERE id = 5", ShardReply.ok());
        proxy.runtime.primaryFence().leaseUntil(System.nanoTime() + 60_000_000_000L);
        assertThat(proxy.run(client, "SELECT v FROM t WHERE id = 5").isOk()).as("within the lease").isTrue();

        // The daemon's fencing never ran (a paused process): the deadline alone refuses.
        proxy.runtime.primaryFence().leaseUntil(System.nanoTime() - 1);
        ClientReply refused = proxy.run(client, "SELECT v FROM t WHERE id = 5");

        assertThat(refused.isOk()).isFalse();
        assertThat(refused.error().errorCode()).isEqualTo(1290);
        assertThat(refused.error().message()).contains("fenced").contains("lease");
        proxy.runtime.primaryFence().leaseUntil(System.nanoTime() + 60_000_000_000L);
        assertThat(proxy.run(client, "SELECT v FROM t WHERE id = 5").isOk()).as("renewed").isTrue();
    }

    @Test
    void aFenceRaisedWhileBranchesPrepareStopsTheDecision() {
        scriptUpdates();
        proxy.shard(1).holdStartingWith("XA PREPARE");
        beginOnBothShards();

        client.query("COMMIT");
        proxy.pump();
        proxy.runtime.primaryFence().fence(REASON);
        assertThat(proxy.shard(1).releaseHeld()).isEqualTo(1);
        proxy.pump();
        ClientReply commit = client.reply();

        assertThat(commit.isOk()).as(commit.toString()).isFalse();
        assertThat(commit.error().errorCode()).isEqualTo(1290);
        String xid = proxy.shard(1).queries().get(0).substring("XA START ".length());
        assertThat(proxy.shard(0).queries()).as("no decision is committed").doesNotContain("COMMIT")
                .last().isEqualTo("CALL cleave.decide(" + xid + ", '1')");
        assertThat(proxy.shard(1).queries()).as("the branch stays prepared for the new primary to settle")
                .last().isEqualTo("XA PREPARE " + xid);
    }

    @Test
    void aFenceRaisedAfterTheDecisionStopsTheBranchCommit() {
        scriptUpdates();
        proxy.shard(0).holdStartingWith("COMMIT");
        beginOnBothShards();

        client.query("COMMIT");
        proxy.pump();
        proxy.runtime.primaryFence().fence(REASON);
        assertThat(proxy.shard(0).releaseHeld()).isEqualTo(1);
        proxy.pump();
        ClientReply commit = client.reply();

        // The decision committed: the transaction is committed (the standby holds the decision row), so the
        // client hears OK; the branch is the new primary's to commit.
        assertThat(commit.isOk()).as(commit.toString()).isTrue();
        String xid = proxy.shard(1).queries().get(0).substring("XA START ".length());
        assertThat(proxy.shard(1).queries()).doesNotContain("XA COMMIT " + xid).last().isEqualTo("XA PREPARE " + xid);
        assertThat(proxy.shard(0).queries()).as("the decision row stays for recovery")
                .doesNotContain("DELETE FROM cleave.decisions WHERE xid = " + xid);
    }

    private void scriptUpdates() {
        TransactionFlowTest.scriptUpdates(proxy);
    }

    private void beginOnBothShards() {
        TransactionFlowTest.beginOnBothShards(proxy, client);
    }
}
