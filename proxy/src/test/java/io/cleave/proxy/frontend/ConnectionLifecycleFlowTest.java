package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.AcquireCallback;
import io.cleave.proxy.backend.BackendConnection;
import io.cleave.proxy.backend.BackendPool;
import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client connection that ends, however and whenever it ends, leaves nothing behind: every
 * backend connection its session borrowed goes back to its pool exactly once, and one that may
 * hold anything (a transaction, a statement in flight, part of a result) is closed first, which
 * rolls back whatever the shard had open. A two-phase commit already under way is carried to its
 * end first. Connections that were clean go back open.
 */
class ConnectionLifecycleFlowTest {

    private static final String SELECT = "SELECT v FROM t WHERE id = 6";
    private static final List<ShardReply.Column> V = List.of(column("v", ColumnType.VAR_STRING));

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    @Test
    void aStatementInFlightLosesItsConnection() {
        proxy.shard(0).answer(SELECT, ShardReply.noAnswer());
        client.query(SELECT);
        proxy.pump();
        assertThat(proxy.pool(client, 0).inUse()).isEqualTo(1);

        client.disconnect();
        proxy.pump();

        assertThat(proxy.shard(0).queries()).containsExactly(SELECT);
        assertThat(proxy.shard(0).openConnections()).as("nobody is left to read its answer").isZero();
        assertThat(client.lastCommandEnded()).as("the statement ends with its connection").isTrue();
        assertEverythingGivenBack();
    }

    @Test
    void aResultHalfRelayedLosesItsConnection() {
        proxy.shard(0).answer(SELECT, ShardReply.cutShort(ShardReply.rows(V, new String[] {"a"}, new String[] {"b"}), 3));
        client.query(SELECT);
        proxy.pump();
        EmbeddedClient.release(client.frames());

        client.disconnect();
        proxy.pump();

        assertThat(proxy.shard(0).openConnections()).as("the rest of the result cannot reach anyone").isZero();
        assertThat(client.lastCommandEnded()).isTrue();
        assertEverythingGivenBack();
    }

    @Test
    void aTransactionOnTwoShardsEndsWithItsClientMidResult() {
        inATransactionOnBothShards();
        proxy.shard(0).answer(SELECT, ShardReply.cutShort(ShardReply.rows(V, new String[] {"a"}), 2));
        client.query(SELECT);
        proxy.pump();
        EmbeddedClient.release(client.frames());

        client.disconnect();
        proxy.pump();

        assertRolledBackByClosing();
    }

    @Test
    void aTransactionOnTwoShardsEndsWithItsClientMidStatement() {
        inATransactionOnBothShards();
        proxy.shard(1).answer("UPDATE t SET v = 'c' WHERE id = 151", ShardReply.noAnswer());
        client.query("UPDATE t SET v = 'c' WHERE id = 151");
        proxy.pump();

        client.disconnect();
        proxy.pump();

        assertThat(client.lastCommandEnded()).isTrue();
        assertRolledBackByClosing();
    }

    @Test
    void aClientLeavingRightAfterBeginAndItsFirstUpdateLeavesNoTransaction() {
        // BEGIN goes with the first statement: START TRANSACTION is answered, the UPDATE still runs
        // (or waits for a lock) when the client goes, before the proxy has recorded the connection
        // as the transaction's by the UPDATE's answer.
        proxy.shard(0).holdStartingWith("UPDATE");
        proxy.run(client, "BEGIN");
        client.query("UPDATE t SET v = 'a' WHERE id = 5");
        proxy.pump();
        assertThat(proxy.shard(0).queries()).containsExactly("START TRANSACTION", "UPDATE t SET v = 'a' WHERE id = 5");

        client.disconnect();
        proxy.pump();
        proxy.shard(0).releaseHeld();
        proxy.pump();

        assertThat(client.lastCommandEnded()).isTrue();
        assertRolledBackByClosing();
    }

    @Test
    void aClientLeavingWhileItsFirstUpdateIsAnsweredLeavesNoTransaction() {
        // The UPDATE's answer arrives after the client's socket closed but before the proxy saw the close.
        proxy.shard(0).answer("UPDATE t SET v = 'a' WHERE id = 5", ShardReply.ok(1, 0));
        proxy.run(client, "BEGIN");
        client.query("UPDATE t SET v = 'a' WHERE id = 5");
        client.channel().close();
        proxy.pump();

        assertThat(proxy.shard(0).queries()).containsExactly("START TRANSACTION", "UPDATE t SET v = 'a' WHERE id = 5");
        assertRolledBackByClosing();
    }

    @Test
    void comQuitInsideATransactionRollsItBack() {
        inATransactionOnBothShards();

        client.send(CommandCode.QUIT, new byte[0]);
        proxy.pump();

        assertThat(client.isOpen()).isFalse();
        assertRolledBackByClosing();
    }

    @Test
    void aWrongSequenceIdInsideATransactionIsAnsweredByTheProxyAndRollsItBack() {
        inATransactionOnBothShards();

        client.send(CommandCode.QUERY, "UPDATE t SET v = 'c' WHERE id = 7".getBytes(StandardCharsets.UTF_8), 3);
        ClientReply reply = client.reply();
        proxy.pump();

        assertThat(reply.error().errorCode()).isEqualTo(1156);
        assertThat(reply.error().sqlState()).isEqualTo("08S01");
        assertThat(client.isOpen()).isFalse();
        assertThat(proxy.shard(0).queries()).doesNotContain("UPDATE t SET v = 'c' WHERE id = 7");
        assertRolledBackByClosing();
    }

    @Test
    void aConnectionThatArrivesAfterItsClientLeftGoesStraightBack() {
        FakeProxy oneConnection = new FakeProxy(config -> config.withMaxBackendConnectionsPerShard(1));
        EmbeddedClient waiting = oneConnection.connect();
        BackendPool pool = oneConnection.pool(waiting, 0);
        HeldConnection other = new HeldConnection();
        pool.acquire(oneConnection.login(FakeProxy.CLIENT), other);
        waiting.channel().runPendingTasks();
        waiting.query(SELECT);
        oneConnection.pump();
        assertThat(pool.waiting()).as("the statement waits in the pool's line").isEqualTo(1);

        waiting.disconnect();
        other.connection.release();
        waiting.channel().runPendingTasks();

        assertThat(pool.waiting()).isZero();
        assertThat(waiting.lastCommandEnded()).isTrue();
        assertThat(oneConnection.shard(0).queries()).as("the statement never ran").isEmpty();
        assertThat(pool.inUse()).isZero();
        assertThat(pool.idle()).as("back open, clean").isEqualTo(1);
        assertThat(pool.repeatedGiveBacks()).isZero();
    }

    @Test
    void aTwoPhaseCommitUnderWayKeepsItsConnectionsUntilItEnds() {
        inATransactionOnBothShards();
        client.query("COMMIT");
        client.channel().runPendingTasks();
        assertThat(proxy.shard(1).hasWaitingCommands()).as("XA PREPARE sent").isTrue();

        client.disconnect();
        assertThat(proxy.shard(0).openConnections()).as("kept for the decision").isEqualTo(1);
        assertThat(proxy.shard(1).openConnections()).as("kept for its prepared branch").isEqualTo(1);
        proxy.pump();

        assertThat(client.lastCommandEnded()).as("COMMIT ended").isTrue();
        String xid = proxy.shard(1).queries().get(0).substring("XA START ".length());
        assertThat(proxy.shard(1).queries()).endsWith("XA END " + xid, "XA PREPARE " + xid, "XA COMMIT " + xid);
        assertThat(proxy.shard(0).queries()).contains("CALL cleave.decide(" + xid
                + ", '1')", "COMMIT");
        assertThat(proxy.shard(1).openConnections()).as("committed: the branch's connection goes back open")
                .isEqualTo(1);
        assertThat(proxy.shard(0).openConnections())
                .as("the coordinator's goes back open, next to the proxy's own that deleted the decision").isEqualTo(2);
        assertEverythingGivenBack();
    }

    /** BEGIN, then a write on each shard (shard 1's in an XA branch): the session holds a connection to each. */
    private void inATransactionOnBothShards() {
        proxy.shard(0).answer("UPDATE t SET v = 'a' WHERE id = 5", ShardReply.ok(1, 0));
        proxy.shard(1).answer("UPDATE t SET v = 'b' WHERE id = 150", ShardReply.ok(1, 0));
        proxy.run(client, "BEGIN");
        assertThat(proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5").inTransaction()).isTrue();
        assertThat(proxy.run(client, "UPDATE t SET v = 'b' WHERE id = 150").inTransaction()).isTrue();
        assertThat(proxy.pool(client, 0).inUse()).isEqualTo(1);
        assertThat(proxy.pool(client, 1).inUse()).isEqualTo(1);
    }

    /** Neither shard committed anything, each closed its connection (which rolls back), nothing is still lent. */
    private void assertRolledBackByClosing() {
        for (int s = 0; s < 2; s++) {
            assertThat(proxy.shard(s).queries()).as("shard %d", s)
                    .noneMatch(q -> q.startsWith("COMMIT") || q.startsWith("XA COMMIT") || q.startsWith("XA PREPARE"));
            assertThat(proxy.shard(s).openConnections()).as("shard %d's connection is closed", s).isZero();
        }
        assertEverythingGivenBack();
    }

    /** Every connection the session borrowed went back, and went back once. */
    private void assertEverythingGivenBack() {
        for (int s = 0; s < 2; s++) {
            BackendPool pool = proxy.pool(client, s);
            assertThat(pool.inUse()).as("shard %d: in use", s).isZero();
            assertThat(pool.open() - pool.idle()).as("shard %d: open but not idle", s).isZero();
            assertThat(pool.repeatedGiveBacks()).as("shard %d: given back twice", s).isZero();
        }
    }

    /** A borrower other than the client, holding what it got. */
    private static final class HeldConnection implements AcquireCallback {
        BackendConnection connection;

        @Override
        public void acquired(BackendConnection c) {
            connection = c;
        }

        @Override
        public void failed(Throwable cause) {
            throw new AssertionError(cause);
        }
    }
}
