package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.Frames;
import io.netty.buffer.ByteBuf;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Transactions as the shards see them: BEGIN waits for the first statement and goes with it, a
 * transaction on one shard is that shard's own, and one that reaches a second shard commits in two
 * phases with the decision recorded on the first.
 */
class TransactionFlowTest {

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    @Test
    void aTransactionOnOneShardIsThatShardsOwn() {
        proxy.shard(0).answer("UPDATE t SET v = 'a' WHERE id = 5", ShardReply.ok(1, 0));
        proxy.shard(0).answer("UPDATE t SET v = 'b' WHERE id = 7", ShardReply.ok(1, 0));

        ClientReply begin = proxy.run(client, "BEGIN");
        assertThat(begin.inTransaction()).as("the client is told it is in a transaction").isTrue();
        assertThat(proxy.shard(0).received()).as("BEGIN waits for the first statement").isEmpty();
        assertThat(proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5").inTransaction()).isTrue();
        assertThat(proxy.run(client, "UPDATE t SET v = 'b' WHERE id = 7").inTransaction()).isTrue();
        ClientReply commit = proxy.run(client, "COMMIT");

        assertThat(commit.isOk()).as(commit.toString()).isTrue();
        assertThat(commit.inTransaction()).isFalse();
        assertThat(proxy.shard(0).queries()).containsExactly("START TRANSACTION", "UPDATE t SET v = 'a' WHERE id = 5",
                "UPDATE t SET v = 'b' WHERE id = 7", "COMMIT");
        assertThat(proxy.shard(1).received()).isEmpty();
        assertThat(proxy.pool(client, 0).open()).as("one connection held for the whole transaction").isEqualTo(1);
        assertThat(proxy.pool(client, 0).idle()).as("and given back after it").isEqualTo(1);
    }

    @Test
    void aTransactionOnTwoShardsCommitsInTwoPhases() {
        scriptUpdates();

        beginOnBothShards();
        ClientReply commit = proxy.run(client, "COMMIT");

        assertThat(commit.isOk()).as(commit.toString()).isTrue();
        String xid = proxy.shard(1).queries().get(0).substring("XA START ".length());
        assertThat(xid).startsWith("'cleave:0:");
        assertThat(proxy.shard(1).queries()).containsExactly("XA START " + xid, "UPDATE t SET v = 'b' WHERE id = 150",
                "XA END " + xid, "XA PREPARE " + xid, "XA COMMIT " + xid);
        assertThat(proxy.shard(0).queries()).startsWith("START TRANSACTION", "UPDATE t SET v = 'a' WHERE id = 5",
                "CALL cleave.decide(" + xid + ", '1')", "COMMIT");
        // Every branch committed: the decision is deleted, by the proxy on a connection of its own.
        assertThat(proxy.shard(0).queries()).last().isEqualTo("DELETE FROM cleave.decisions WHERE xid = " + xid);
    }

    @Test
    void aCommitAcrossShardsIsAnsweredAtItsDecisionAndLaterStatementsWaitForTheBranchCommit() {
        scriptUpdates();
        proxy.shard(0).answer("SELECT v FROM t WHERE id = 5", ShardReply.ok());
        proxy.shard(1).answer("SELECT v FROM t WHERE id = 150", ShardReply.ok());
        proxy.shard(1).holdStartingWith("XA COMMIT");
        EmbeddedClient other = proxy.connect();
        EmbeddedClient third = proxy.connect();

        beginOnBothShards();
        ClientReply commit = proxy.run(client, "COMMIT");

        assertThat(commit.isOk()).as("answered once the decision is committed: " + commit).isTrue();
        String xid = proxy.shard(1).queries().get(0).substring("XA START ".length());
        assertThat(proxy.shard(1).queries()).last().as("the branch commit still runs").isEqualTo("XA COMMIT " + xid);

        // Another client (and this one) reaching shard 1 now waits for that branch commit...
        other.query("SELECT v FROM t WHERE id = 150");
        client.query("SELECT v FROM t WHERE id = 150");
        proxy.pump();
        assertThat(proxy.shard(1).queries()).doesNotContain("SELECT v FROM t WHERE id = 150");
        // ...while a shard without one answers at once.
        assertThat(proxy.run(third, "SELECT v FROM t WHERE id = 5").isOk()).isTrue();

        assertThat(proxy.shard(1).releaseHeld()).isEqualTo(1);
        proxy.pump();
        assertThat(other.reply().isOk()).isTrue();
        assertThat(client.reply().isOk()).isTrue();
        assertThat(proxy.shard(1).queries()).endsWith("XA COMMIT " + xid, "SELECT v FROM t WHERE id = 150",
                "SELECT v FROM t WHERE id = 150");
        assertThat(proxy.shard(0).queries()).contains("DELETE FROM cleave.decisions WHERE xid = " + xid);
    }

    @Test
    void aBranchCommittedAfterTheAnswerKeepsTheSettingsOfItsCommit() {
        scriptUpdates();

        beginOnBothShards();
        // The client's next statement comes right behind COMMIT (as a driver's setAutoCommit after
        // commit does): it changes the session's settings once COMMIT is answered, before the
        // branch's XA COMMIT is sent. A prepared branch takes nothing but its XA COMMIT, so that
        // commit must not bring its connection to the new settings first.
        client.query("COMMIT");
        client.query("SET autocommit=0");
        proxy.pump();
        List<ByteBuf> replies = client.frames();
        try {
            assertThat(replies).as("COMMIT and SET answered").hasSize(2);
            for (ByteBuf reply : replies) {
                assertThat(Frames.payload(reply).getUnsignedByte(0)).as("an OK packet").isZero();
            }
        } finally {
            EmbeddedClient.release(replies);
        }

        String xid = proxy.shard(1).queries().get(0).substring("XA START ".length());
        assertThat(proxy.shard(1).queries()).containsExactly("XA START " + xid, "UPDATE t SET v = 'b' WHERE id = 150",
                "XA END " + xid, "XA PREPARE " + xid, "XA COMMIT " + xid);
        // Every branch committed: the decision row goes (it stays only for recovery to settle a branch).
        assertThat(proxy.shard(0).queries()).last().isEqualTo("DELETE FROM cleave.decisions WHERE xid = " + xid);
        assertThat(proxy.pool(client, 1).idle()).as("the branch's connection went back to its pool, open").isEqualTo(1);
    }

    @Test
    void aBranchOnAPinnedConnectionCommitsBeforeTheAnswer() {
        for (int shard = 0; shard < 2; shard++) {
            proxy.shard(shard).answer("CREATE TEMPORARY TABLE tmp (a INT)", ShardReply.ok());
        }
        scriptUpdates();
        proxy.run(client, "CREATE TEMPORARY TABLE tmp (a INT)");
        int pinned = proxy.shard(0).queries().isEmpty() ? 1 : 0;
        proxy.shard(pinned).holdStartingWith("XA COMMIT");

        proxy.run(client, "BEGIN");
        // The other shard first: it coordinates, and the pinned one joins as a branch.
        proxy.run(client, pinned == 0 ? "UPDATE t SET v = 'b' WHERE id = 150" : "UPDATE t SET v = 'a' WHERE id = 5");
        proxy.run(client, pinned == 0 ? "UPDATE t SET v = 'a' WHERE id = 5" : "UPDATE t SET v = 'b' WHERE id = 150");
        client.query("COMMIT");
        proxy.pump();

        // The temporary table ties the branch's connection to the session, whose client could leave and close
        // it under an XA COMMIT still running: so the answer waits for that XA COMMIT.
        assertThat(proxy.shard(pinned).queries()).last().asString().startsWith("XA COMMIT");
        assertThat(client.hasReply()).as("no answer before the pinned branch committed").isFalse();
        assertThat(proxy.shard(pinned).releaseHeld()).isEqualTo(1);
        proxy.pump();
        assertThat(client.reply().isOk()).isTrue();
    }

    @Test
    void aClientLeavingDuringAPinnedBranchCommitDoesNotCloseItUnderItsXaCommit() {
        for (int shard = 0; shard < 2; shard++) {
            proxy.shard(shard).answer("CREATE TEMPORARY TABLE tmp (a INT)", ShardReply.ok());
        }
        scriptUpdates();
        proxy.run(client, "CREATE TEMPORARY TABLE tmp (a INT)");
        int pinned = proxy.shard(0).queries().isEmpty() ? 1 : 0;
        proxy.shard(pinned).holdStartingWith("XA COMMIT");
        proxy.run(client, "BEGIN");
        proxy.run(client, pinned == 0 ? "UPDATE t SET v = 'b' WHERE id = 150" : "UPDATE t SET v = 'a' WHERE id = 5");
        proxy.run(client, pinned == 0 ? "UPDATE t SET v = 'a' WHERE id = 5" : "UPDATE t SET v = 'b' WHERE id = 150");
        client.query("COMMIT");
        proxy.pump();
        assertThat(proxy.shard(pinned).queries()).last().asString().startsWith("XA COMMIT");
        int open = proxy.shard(pinned).openConnections();

        // The client goes while its pinned branch's XA COMMIT runs: closing that connection now
        // would leave the branch prepared, holding its rows until recovery.
        client.disconnect();
        proxy.pump();
        assertThat(proxy.shard(pinned).openConnections()).as("the branch's connection stays open until its XA COMMIT answered")
                .isEqualTo(open);

        assertThat(proxy.shard(pinned).releaseHeld()).isEqualTo(1);
        proxy.pump();
        // Then it goes, with the temporary table the departed client left on it.
        assertThat(proxy.shard(pinned).openConnections()).isLessThan(open);
    }

    @Test
    void aShardThatFailedToJoinIsNoPartOfTheNextTransaction() {
        scriptUpdates();
        proxy.shard(1).answerStartingWith("XA START", ShardReply.error(1399, "XAE07",
                "XAER_RMFAIL: The command cannot be executed when global transaction is in the  ACTIVE state"));

        proxy.run(client, "BEGIN");
        proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5");
        assertThat(proxy.run(client, "UPDATE t SET v = 'b' WHERE id = 150").isOk()).as("shard 1 could not join").isFalse();
        assertThat(proxy.run(client, "ROLLBACK").isOk()).isTrue();

        // The next transaction reaches shard 1 only: it is that shard's own, no XA branch left
        // over from the join that failed (a move's cutover would also wait for that branch forever).
        proxy.run(client, "BEGIN");
        proxy.run(client, "UPDATE t SET v = 'b' WHERE id = 150");
        ClientReply commit = proxy.run(client, "COMMIT");
        assertThat(commit.isOk()).as(commit.toString()).isTrue();
        assertThat(proxy.shard(1).queries()).endsWith("START TRANSACTION", "UPDATE t SET v = 'b' WHERE id = 150", "COMMIT");
    }

    @Test
    void aDecisionThatCannotBeRecordedRollsBackEveryShard() {
        scriptUpdates();
        proxy.shard(0).answerStartingWith("CALL cleave.decide(", ShardReply.error(1205, "HY000",
                "Lock wait timeout exceeded; try restarting transaction"));

        beginOnBothShards();
        ClientReply commit = proxy.run(client, "COMMIT");

        assertThat(commit.isOk()).as("a commit without its decision row must fail").isFalse();
        assertThat(commit.error().errorCode()).isEqualTo(1205);
        // A failed INSERT ends only that statement: a COMMIT after it would commit shard 0's
        // update alone. The coordinator must roll back, and so must the prepared branch.
        assertThat(proxy.shard(0).queries()).doesNotContain("COMMIT").last().isEqualTo("ROLLBACK");
        String xid = proxy.shard(1).queries().get(0).substring("XA START ".length());
        assertThat(proxy.shard(1).queries()).containsExactly("XA START " + xid, "UPDATE t SET v = 'b' WHERE id = 150",
                "XA END " + xid, "XA PREPARE " + xid, "XA ROLLBACK " + xid);
        proxy.shard(0).answer("SELECT 1", ShardReply.ok());
        assertThat(proxy.run(client, "SELECT 1").inTransaction()).as("the transaction is over").isFalse();
    }

    @Test
    void aDeadlockOnOneShardRollsBackEveryShard() {
        scriptUpdates();
        proxy.shard(1).answer("UPDATE t SET v = 'c' WHERE id = 151", ShardReply.error(1213, "40001",
                "Deadlock found when trying to get lock; try restarting transaction"));

        beginOnBothShards();
        ClientReply deadlock = proxy.run(client, "UPDATE t SET v = 'c' WHERE id = 151");

        assertThat(deadlock.error().errorCode()).isEqualTo(1213);
        assertThat(deadlock.error().sqlState()).isEqualTo("40001");
        assertThat(proxy.shard(0).queries()).last().isEqualTo("ROLLBACK");
        assertThat(proxy.shard(1).queries().subList(3, 5)).satisfiesExactly(
                s -> assertThat(s).startsWith("XA END"), s -> assertThat(s).startsWith("XA ROLLBACK"));
        proxy.shard(0).answer("SELECT 1", ShardReply.ok());
        proxy.shard(1).answer("SELECT 1", ShardReply.ok());
        ClientReply after = proxy.run(client, "SELECT 1");
        assertThat(after.isOk()).as("the session goes on").isTrue();
        assertThat(after.inTransaction()).isFalse();
    }

    @Test
    void aFirstStatementFailingWithAutocommitOffLeavesItsTransactionToTheClientsCommit() {
        autocommitOffWhereShard0Fails("UPDATE t SET v = 'a' WHERE id = 5", ShardReply.error(1205, "HY000",
                "Lock wait timeout exceeded; try restarting transaction"));

        ClientReply timedOut = proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5");
        assertThat(timedOut.error().errorCode()).isEqualTo(1205);
        // The error does not say whether the shard opened a transaction (it did): the proxy asks.
        assertThat(proxy.shard(0).received()).endsWith("UPDATE t SET v = 'a' WHERE id = 5", "COM_PING");
        assertThat(proxy.pool(client, 0).inUse()).as("kept for the transaction").isEqualTo(1);
        // A second shard joins that transaction as a branch, as it would after a statement that succeeded.
        assertThat(proxy.run(client, "UPDATE t SET v = 'b' WHERE id = 150").isOk()).isTrue();
        ClientReply commit = proxy.run(client, "COMMIT");

        assertThat(commit.isOk()).as(commit.toString()).isTrue();
        assertThat(proxy.shard(0).queries()).as("the COMMIT reaches the shard whose statement failed")
                .contains("COMMIT");
        assertThat(proxy.shard(1).queries()).anyMatch(q -> q.startsWith("XA START"));
        assertThat(proxy.pool(client, 0).inUse()).as("given back after the COMMIT").isZero();
    }

    @Test
    void aFirstStatementFailingBeforeATransactionWithAutocommitOffLeavesNone() {
        autocommitOffWhereShard0Fails("UPDATE nosuch SET v = 'a' WHERE id = 5", ShardReply.error(1146, "42S02",
                "Table 'app.nosuch' doesn't exist"));

        assertThat(proxy.run(client, "UPDATE nosuch SET v = 'a' WHERE id = 5").error().errorCode()).isEqualTo(1146);
        assertThat(proxy.pool(client, 0).inUse()).as("no transaction to keep it for").isZero();
        // The next shard the session reaches opens the transaction as the server's own, no XA branch.
        ClientReply update = proxy.run(client, "UPDATE t SET v = 'b' WHERE id = 150");
        assertThat(update.isOk()).as(update.toString()).isTrue();
        assertThat(update.inTransaction()).isTrue();
        assertThat(proxy.run(client, "COMMIT").isOk()).isTrue();
        assertThat(proxy.shard(1).queries()).endsWith("UPDATE t SET v = 'b' WHERE id = 150", "COMMIT")
                .noneMatch(q -> q.startsWith("XA "));
        assertThat(proxy.shard(0).queries()).doesNotContain("COMMIT");
    }

    /** Autocommit off; shard 0 answers {@code sql} with {@code error}, shard 1 its update of id 150. */
    private void autocommitOffWhereShard0Fails(String sql, ShardReply error) {
        proxy.shard(0).answer(sql, error);
        proxy.shard(1).answer("UPDATE t SET v = 'b' WHERE id = 150", ShardReply.ok(1, 0));
        proxy.run(client, "SET autocommit = 0");
    }

    /** Both shards answer the tests' updates: one row of t each, id 5 on shard 0 and id 150 on shard 1. */
    private void scriptUpdates() {
        scriptUpdates(proxy);
    }

    private void beginOnBothShards() {
        beginOnBothShards(proxy, client);
    }

    /** One update scripted on each shard: 'a' on shard 0, 'b' on shard 1. */
    static void scriptUpdates(FakeProxy proxy) {
        proxy.shard(0).answer("UPDATE t SET v = 'a' WHERE id = 5", ShardReply.ok(1, 0));
        proxy.shard(1).answer("UPDATE t SET v = 'b' WHERE id = 150", ShardReply.ok(1, 0));
    }

    /** BEGIN and one update on each shard, shard 0 first (it coordinates, shard 1 joins as an XA branch). */
    static void beginOnBothShards(FakeProxy proxy, EmbeddedClient client) {
        proxy.run(client, "BEGIN");
        proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5");
        proxy.run(client, "UPDATE t SET v = 'b' WHERE id = 150");
    }
}
