package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.cut.CutLimits;
import io.cleave.proxy.cut.CutWindows;
import io.cleave.proxy.cut.SnapshotStatements;
import io.cleave.proxy.protocol.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Cuts against cross-shard commits as the shards see them: a read of several shards opens its
 * snapshots only while no commit is between its decision and its last branch commit, a commit's
 * decision waits while a cut's snapshots are being opened, answers wait too, and neither side
 * starves the other.
 */
class CutFlowTest {

    private static final String COUNT = "SELECT COUNT(*) FROM t LIMIT 18446744073709551615";
    private static final String SNAPSHOT = "START TRANSACTION WITH CONSISTENT SNAPSHOT";

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient writer = proxy.connect();
    private final EmbeddedClient reader = proxy.connect();

    CutFlowTest() {
        for (int shard = 0; shard < 2; shard++) {
            proxy.shard(shard).answerStartingWith("SELECT COUNT(*)", ShardReply.rows(
                    List.of(column("COUNT(*)", ColumnType.LONGLONG)), new String[] {"2"}));
            proxy.shard(shard).answer(SnapshotStatements.OPEN_READ_VIEW,
                    ShardReply.rows(List.of(column("1", ColumnType.LONG))));
        }
        proxy.shard(0).answer("UPDATE t SET v = 'a' WHERE id = 5", ShardReply.ok(1, 0));
        proxy.shard(1).answer("UPDATE t SET v = 'b' WHERE id = 150", ShardReply.ok(1, 0));
        proxy.shard(0).answer("SELECT v FROM t WHERE id = 5", ShardReply.rows(List.of(column("v", ColumnType.VAR_STRING)),
                new String[] {"a"}));
    }

    @Test
    void aSnapshotWaitsForTheBranchCommitOfATransactionDecidedBeforeItsWindow() {
        proxy.shard(1).holdStartingWith("XA COMMIT");
        assertThat(commitAcrossShards().isOk()).as("answered at the decision").isTrue();

        reader.query("SELECT COUNT(*) FROM t");
        proxy.pump();
        assertThat(proxy.runtime.cuts().windowOpen()).as("no decision in flight: the window begins").isTrue();
        assertThat(proxy.shard(1).queries()).as("no snapshot opens while the branch is prepared on shard 1")
                .doesNotContain(SNAPSHOT);
        assertThat(proxy.shard(0).queries()).as("nor on shard 0: they open together").doesNotContain(SNAPSHOT);
        assertThat(proxy.runtime.cuts().holdingAnswers()).as("meanwhile answers go").isFalse();
        assertThat(reader.hasReply()).isFalse();

        assertThat(proxy.shard(1).releaseHeld()).isEqualTo(1);
        proxy.pump();
        assertThat(reader.reply().rows()).containsExactly(List.of("4"));
        List<String> shard1 = proxy.shard(1).queries();
        assertThat(shard1.indexOf(SNAPSHOT)).as("shard 1's snapshot opened after its branch committed")
                .isGreaterThan(indexStartingWith(shard1, "XA COMMIT"));
    }

    @Test
    void aDecisionWaitsWhileTheCutsSnapshotOnItsCoordinatorsShardIsBeingOpened() {
        writeOnBothShards(writer);
        proxy.shard(0).holdStartingWith(SNAPSHOT);
        reader.query("SELECT COUNT(*) FROM t");
        proxy.pump();
        assertThat(proxy.runtime.cuts().windowOpen()).isTrue();

        writer.query("COMMIT");
        proxy.pump();
        assertThat(proxy.shard(1).queries()).as("prepared while the window is open").anyMatch(q -> q.startsWith("XA PREPARE"));
        assertThat(proxy.shard(0).queries()).as("but no decision").doesNotContain("COMMIT");
        assertThat(writer.hasReply()).isFalse();
        assertThat(proxy.runtime.cuts().heldCommits()).isEqualTo(1);

        assertThat(proxy.shard(0).releaseHeld()).isEqualTo(1);
        proxy.pump();
        assertThat(writer.reply().isOk()).isTrue();
        assertThat(reader.reply().rows()).containsExactly(List.of("4"));
        List<String> shard0 = proxy.shard(0).queries();
        assertThat(shard0.indexOf("COMMIT")).as("the decision came after the reader's snapshot opened")
                .isGreaterThan(shard0.indexOf(SNAPSHOT));
    }

    @Test
    void aBranchCommitOfATransactionDecidedInAWindowWaitsForTheSnapshotOnItsShardAndTheAnswerForTheWindow() {
        writeOnBothShards(writer);
        proxy.shard(1).holdStartingWith(SNAPSHOT);
        reader.query("SELECT COUNT(*) FROM t");
        proxy.pump();

        writer.query("COMMIT");
        proxy.pump();
        assertThat(proxy.shard(0).queries()).as("shard 0's snapshot is open: the decision goes").contains("COMMIT");
        assertThat(proxy.shard(1).queries()).as("the branch commit waits for shard 1's snapshot")
                .noneMatch(q -> q.startsWith("XA COMMIT"));
        assertThat(proxy.runtime.cuts().heldBranchCommits()).isEqualTo(1);
        assertThat(writer.hasReply()).as("the acknowledgement waits for the window").isFalse();

        proxy.shard(1).releaseHeld();
        proxy.pump();
        assertThat(writer.reply().isOk()).isTrue();
        assertThat(reader.reply().rows()).containsExactly(List.of("4"));
        List<String> shard1 = proxy.shard(1).queries();
        assertThat(indexStartingWith(shard1, "XA COMMIT")).isGreaterThan(shard1.indexOf(SNAPSHOT));
    }

    @Test
    void anAnswerThatArrivesWhileSnapshotsAreOpeningWaitsAndSoDoesTheNextCommand() {
        EmbeddedClient other = proxy.connect();
        proxy.shard(1).holdStartingWith(SNAPSHOT);
        reader.query("SELECT COUNT(*) FROM t");
        proxy.pump();

        // Another client's single-shard write is answered by its shard while the window is open...
        other.query("UPDATE t SET v = 'a' WHERE id = 5");
        other.query("SELECT v FROM t WHERE id = 5");
        proxy.pump();
        assertThat(proxy.shard(0).queries()).contains("UPDATE t SET v = 'a' WHERE id = 5");
        assertThat(other.hasReply()).as("its acknowledgement waits for the window").isFalse();
        assertThat(proxy.shard(0).queries()).as("and the command it sent behind it does not start")
                .doesNotContain("SELECT v FROM t WHERE id = 5");

        proxy.shard(1).releaseHeld();
        proxy.pump();
        List<io.netty.buffer.ByteBuf> frames = other.frames();
        try {
            assertThat(frames).as("both answered once the snapshots are open").hasSizeGreaterThan(2);
        } finally {
            EmbeddedClient.release(frames);
        }
        assertThat(reader.reply().rows()).containsExactly(List.of("4"));
    }

    @Test
    void aCutWhoseShardsAnsweredAfterItsWindowExpiredIsTakenAgainAndTheReadIsAnswered() {
        proxy.shard(1).holdStartingWith(SNAPSHOT);
        reader.query("SELECT COUNT(*) FROM t");
        proxy.pump();
        expireTheOpenWindow();
        assertThat(proxy.shard(1).releaseHeld()).isEqualTo(1);
        proxy.pump();
        assertThat(reader.hasReply()).as("the late cut is not answered with an error: it is taken again").isFalse();

        assertThat(proxy.shard(1).releaseHeld()).as("the second cut's snapshot").isEqualTo(1);
        proxy.pump();
        assertThat(reader.reply().rows()).containsExactly(List.of("4"));
        assertThat(proxy.shard(0).queries().stream().filter(SNAPSHOT::equals).count()).isEqualTo(2);
    }

    @Test
    void aCutWhoseWindowExpiresOnEveryAttemptIsRefusedWithALockWaitTimeout() {
        proxy.shard(1).holdStartingWith(SNAPSHOT);
        reader.query("SELECT COUNT(*) FROM t");
        proxy.pump();
        for (int attempt = 1; attempt <= SessionCuts.ATTEMPTS; attempt++) {
            assertThat(reader.hasReply()).as("attempt %d", attempt).isFalse();
            expireTheOpenWindow();
            assertThat(proxy.shard(1).releaseHeld()).isEqualTo(1);
            proxy.pump();
        }
        ClientReply refused = reader.reply();
        assertThat(refused.isError()).as(refused.toString()).isTrue();
        assertThat(refused.error().errorCode()).isEqualTo(1205);
        assertThat(refused.error().message()).contains("did not open their snapshots");
        assertThat(proxy.run(reader, "SELECT v FROM t WHERE id = 5").rows()).as("the session goes on")
                .containsExactly(List.of("a"));
    }

    /** Gives up the open window now, as the timer does once it has been open longer than its limit. */
    private void expireTheOpenWindow() {
        CutWindows cuts = proxy.runtime.cuts();
        CutLimits limits = cuts.limits();
        cuts.limits(new CutLimits(limits.priorityAfterNanos(), limits.commitHoldNanos(), -1, limits.cutWaitNanos()));
        cuts.tick();
        cuts.limits(limits);
    }

    @Test
    void aCutThatWaitedPastItsPriorityGoesBeforeNewDecisionsAndTheyGoRightAfter() {
        proxy.runtime.cuts().limits(new CutLimits(0, 60_000_000_000L, 60_000_000_000L, 60_000_000_000L));
        EmbeddedClient second = proxy.connect();
        writeOnBothShards(second);
        writeOnBothShards(writer);
        proxy.shard(0).holdStartingWith("COMMIT");
        writer.query("COMMIT");
        proxy.pump();
        assertThat(proxy.runtime.cuts().decisionsInFlight()).as("the first decision is being committed").isEqualTo(1);

        reader.query("SELECT COUNT(*) FROM t");
        proxy.pump();
        assertThat(proxy.runtime.cuts().waitingCuts()).isEqualTo(1);
        // A second commit reaches its decision while the cut waits for the first: the cut has priority.
        second.query("COMMIT");
        proxy.pump();
        assertThat(proxy.runtime.cuts().heldCommits()).as("its decision waits for the cut").isEqualTo(1);
        assertThat(proxy.shard(0).queries().stream().filter("COMMIT"::equals).count()).isEqualTo(1);

        // The first decision is answered: the window opens, the reader's snapshots open, and the
        // second decision goes right after the snapshot on its coordinator's shard.
        while (proxy.shard(0).releaseHeld() > 0) {
            proxy.pump();
        }
        assertThat(writer.reply().isOk()).isTrue();
        assertThat(second.reply().isOk()).isTrue();
        assertThat(reader.reply().rows()).containsExactly(List.of("4"));
        List<String> shard0 = proxy.shard(0).queries();
        assertThat(shard0.lastIndexOf("COMMIT")).as("the second decision came after the reader's snapshot opened")
                .isGreaterThan(shard0.indexOf(SNAPSHOT));
        assertThat(proxy.runtime.cuts().decisionsInFlight()).isZero();
    }

    @Test
    void aTransactionBegunWithAConsistentSnapshotJoinsEveryShardAtOneCut() {
        ClientReply begin = proxy.run(reader, "START TRANSACTION WITH CONSISTENT SNAPSHOT");
        assertThat(begin.isOk()).as(begin.toString()).isTrue();
        assertThat(proxy.shard(0).queries()).containsExactly(SNAPSHOT);
        String xaStart = proxy.shard(1).queries().get(0);
        assertThat(xaStart).startsWith("XA START 'cleave:0:");
        assertThat(proxy.shard(1).queries()).containsExactly(xaStart, SnapshotStatements.OPEN_READ_VIEW);

        // A read of one shard reads its snapshot, on the transaction's connection.
        assertThat(proxy.run(reader, "SELECT v FROM t WHERE id = 5").rows()).containsExactly(List.of("a"));
        assertThat(proxy.run(reader, "COMMIT").isOk()).isTrue();
        String xid = xaStart.substring("XA START ".length());
        assertThat(proxy.shard(0).queries()).containsExactly(SNAPSHOT, "SELECT v FROM t WHERE id = 5", "COMMIT");
        assertThat(proxy.shard(1).queries()).endsWith("XA END " + xid, "XA ROLLBACK " + xid);
        assertThat(proxy.pool(reader, 1).idle()).as("the branch's connection went back").isEqualTo(1);
    }

    @Test
    void aReadOnlyTransactionTakesItsCutAtItsFirstStatementAndItsBranchesAreReadOnly() {
        assertThat(proxy.run(reader, "START TRANSACTION READ ONLY").isOk()).isTrue();
        assertThat(proxy.shard(0).queries()).as("held back until a statement needs a shard").isEmpty();

        assertThat(proxy.run(reader, "SELECT v FROM t WHERE id = 5").rows()).containsExactly(List.of("a"));
        assertThat(proxy.shard(0).queries()).containsExactly("START TRANSACTION WITH CONSISTENT SNAPSHOT, READ ONLY",
                "SELECT v FROM t WHERE id = 5");
        assertThat(proxy.shard(1).queries()).hasSize(3).startsWith("SET TRANSACTION READ ONLY");
        assertThat(proxy.run(reader, "COMMIT").isOk()).isTrue();
    }

    @Test
    void theFirstReadOfATransactionJoinsItsShardsAtACutAndTheyCommitAsUsual() {
        proxy.run(writer, "BEGIN");
        assertThat(proxy.run(writer, "SELECT COUNT(*) FROM t").rows()).containsExactly(List.of("4"));
        assertThat(proxy.shard(0).queries()).containsExactly(SNAPSHOT, COUNT);
        String xaStart = proxy.shard(1).queries().get(0);
        assertThat(proxy.shard(1).queries()).containsExactly(xaStart, SnapshotStatements.OPEN_READ_VIEW, COUNT);

        proxy.run(writer, "UPDATE t SET v = 'a' WHERE id = 5");
        proxy.run(writer, "UPDATE t SET v = 'b' WHERE id = 150");
        assertThat(proxy.run(writer, "COMMIT").isOk()).isTrue();
        String xid = xaStart.substring("XA START ".length());
        assertThat(proxy.shard(1).queries()).endsWith("XA END " + xid, "XA PREPARE " + xid, "XA COMMIT " + xid);
    }

    @Test
    void aReadCommittedTransactionReadsEachShardAsItComesWithoutACut() {
        proxy.run(writer, "SET TRANSACTION ISOLATION LEVEL READ COMMITTED");
        proxy.run(writer, "BEGIN");
        assertThat(proxy.run(writer, "SELECT COUNT(*) FROM t").rows()).containsExactly(List.of("4"));
        assertThat(proxy.shard(0).queries()).containsExactly("SET TRANSACTION ISOLATION LEVEL READ COMMITTED",
                "START TRANSACTION", COUNT);
    }

    @Test
    void aCutThatCannotOpenOnAShardFailsTheReadAndLeavesNoSnapshotOpen() {
        proxy.shard(1).answer(SNAPSHOT, ShardReply.error(1205, "HY000", "Lock wait timeout exceeded"));
        int open = proxy.shard(0).openConnections();

        ClientReply reply = proxy.run(reader, "SELECT COUNT(*) FROM t");

        assertThat(reply.isError()).isTrue();
        assertThat(reply.error().errorCode()).isEqualTo(1205);
        assertThat(proxy.shard(0).queries()).doesNotContain(COUNT);
        assertThat(proxy.shard(0).openConnections()).as("the snapshot opened on shard 0 was closed with its connection")
                .isLessThanOrEqualTo(open);
        assertThat(proxy.runtime.cuts().windowOpen()).isFalse();
        assertThat(proxy.run(reader, "SELECT v FROM t WHERE id = 5").rows()).as("the session goes on")
                .containsExactly(List.of("a"));
    }

    @Test
    void aClientLeavingWhileItsCutWaitsLeavesItsConnectionsToOthersUntouched() {
        writeOnBothShards(writer);
        proxy.shard(0).holdStartingWith("COMMIT");
        writer.query("COMMIT");
        proxy.pump();
        reader.query("SELECT COUNT(*) FROM t");
        proxy.pump();
        assertThat(proxy.runtime.cuts().waitingCuts()).as("the cut waits for the decision in flight").isEqualTo(1);

        // The reader goes: the connections its cut got go back to the pools, and others borrow them.
        reader.disconnect();
        proxy.pump();
        EmbeddedClient other = proxy.connect();
        other.query("SELECT v FROM t WHERE id = 5");
        proxy.pump();
        assertThat(other.reply().rows()).containsExactly(List.of("a"));

        proxy.shard(0).releaseHeld();
        proxy.pump();
        assertThat(writer.reply().isOk()).isTrue();
        assertThat(proxy.shard(0).queries()).as("nothing of the departed cut reaches a connection").doesNotContain(SNAPSHOT);
        assertThat(proxy.shard(1).queries()).doesNotContain(SNAPSHOT);
        assertThat(proxy.runtime.cuts().windowOpen()).as("its window did not wait for it").isFalse();
        assertThat(proxy.run(other, "SELECT v FROM t WHERE id = 5").rows()).containsExactly(List.of("a"));
    }

    @Test
    void withCutsOffAReadOfSeveralShardsReadsEachAsItComes() {
        proxy.runtime.cuts().enabled(false);
        assertThat(proxy.run(reader, "SELECT COUNT(*) FROM t").rows()).containsExactly(List.of("4"));
        assertThat(proxy.shard(0).queries()).containsExactly(COUNT);
    }

    private ClientReply commitAcrossShards() {
        writeOnBothShards(writer);
        return proxy.run(writer, "COMMIT");
    }

    /** BEGIN and an update on each shard, shard 0 first: COMMIT will be a two-phase commit. */
    @Test
    void theLastAnswerBeforeAConnectionClosesIsSentOnceTheWindowEndsNotDroppedWithTheConnection() {
        EmbeddedClient leaving = proxy.connect();
        proxy.shard(1).holdStartingWith(SNAPSHOT);
        reader.query("SELECT COUNT(*) FROM t");
        proxy.pump();

        leaving.query("COMMIT RELEASE");
        proxy.pump();
        assertThat(leaving.hasReply()).as("the OK waits for the window").isFalse();
        assertThat(leaving.isOpen()).as("and the connection stays open until it has gone").isTrue();

        proxy.shard(1).releaseHeld();
        proxy.pump();
        assertThat(leaving.reply().isOk()).as("the OK of COMMIT RELEASE reached the client").isTrue();
        assertThat(leaving.isOpen()).as("then the connection closed").isFalse();
    }

    private void writeOnBothShards(EmbeddedClient client) {
        proxy.run(client, "BEGIN");
        proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5");
        proxy.run(client, "UPDATE t SET v = 'b' WHERE id = 150");
    }

    private static int indexStartingWith(List<String> queries, String prefix) {
        for (int i = 0; i < queries.size(); i++) {
            if (queries.get(i).startsWith(prefix)) {
                return i;
            }
        }
        return -1;
    }
}
