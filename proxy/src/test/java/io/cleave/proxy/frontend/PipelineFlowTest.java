package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.protocol.packet.client.CommandCode;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Autocommit statements of several clients that reach the proxy in one event-loop pass go to the
 * shard back-to-back on one backend connection (proxy.pipeline_depth above 1), and each client
 * gets exactly its own answer: in order, with errors, lost connections and departures kept to
 * the statement they concern.
 */
class PipelineFlowTest {

    private final FakeProxy proxy = new FakeProxy(config -> config.withPipelineDepth(8));
    private EmbeddedClient warmUp;
    private final List<EmbeddedClient> clients = new ArrayList<>();

    /**
     * The first client's loop serves all (it runs the tasks that end a pass whenever its channel
     * is touched, so it never sends in a pass itself).
     */
    @BeforeEach
    void oneIdleConnection() {
        proxy.runtime.serveEveryLoopAsOne();
        warmUp = proxy.connect();
        for (int i = 0; i < 4; i++) {
            clients.add(proxy.connect());
        }
        for (int id = 1; id <= 6; id++) {
            proxy.shard(0).answer("SELECT v FROM t WHERE id = " + id, ShardReply.rows(
                    List.of(column("v", ColumnType.VAR_STRING)), new String[] {"value " + id}));
        }
        // One connection, brought to the sessions' schema, waits in the pool.
        assertThat(proxy.run(warmUp, "SELECT v FROM t WHERE id = 6").rows()).containsExactly(List.of("value 6"));
        proxy.shard(0).forget();
        assertThat(proxy.pool(warmUp, 0).idle()).isEqualTo(1);
    }

    private EmbeddedClient client(int i) {
        return clients.get(i);
    }

    @Test
    void statementsOfOnePassShareOneConnectionAndEachClientGetsItsOwnAnswer() {
        for (int i = 0; i < 3; i++) {
            client(i).queryInPass("SELECT v FROM t WHERE id = " + (i + 1));
        }
        assertThat(proxy.shard(0).hasWaitingCommands()).as("nothing is flushed before the pass ends").isFalse();

        proxy.pump();

        for (int i = 0; i < 3; i++) {
            assertThat(client(i).reply().rows()).as("client " + i).containsExactly(List.of("value " + (i + 1)));
        }
        assertThat(proxy.shard(0).received()).containsExactly("SELECT v FROM t WHERE id = 1",
                "SELECT v FROM t WHERE id = 2", "SELECT v FROM t WHERE id = 3");
        assertThat(proxy.shard(0).openConnections()).as("one connection carried all three").isEqualTo(1);
        assertThat(proxy.pool(warmUp, 0).pipelinedStatements()).isEqualTo(2);
        assertThat(proxy.pool(warmUp, 0).idle()).as("back in the pool once every answer was in").isEqualTo(1);
        assertThat(proxy.pool(warmUp, 0).inUse()).isZero();
    }

    @Test
    void answersThatArriveInOneReadAreSplitPerClient() {
        proxy.shard(0).answerInOneRead();
        proxy.shard(0).answer("SELECT v FROM t WHERE id IN (4, 5, 6)", ShardReply.rows(
                List.of(column("v", ColumnType.VAR_STRING)), new String[] {"value 4"}, new String[] {"value 5"},
                new String[] {"value 6"}));
        client(0).queryInPass("SELECT v FROM t WHERE id = 1");
        client(1).queryInPass("SELECT v FROM t WHERE id IN (4, 5, 6)");
        client(2).queryInPass("SELECT v FROM t WHERE id = 2");

        proxy.pump();

        assertThat(client(0).reply().rows()).containsExactly(List.of("value 1"));
        assertThat(client(1).reply().rows()).as("a result set of several rows, relayed whole")
                .containsExactly(List.of("value 4"), List.of("value 5"), List.of("value 6"));
        assertThat(client(2).reply().rows()).containsExactly(List.of("value 2"));
        assertThat(proxy.shard(0).openConnections()).isEqualTo(1);
    }

    @Test
    void anErrorInTheMiddleReachesOnlyItsClient() {
        proxy.shard(0).answer("SELECT w FROM t WHERE id = 2", ShardReply.error(1054, "42S22",
                "Unknown column 'w' in 'field list'"));
        client(0).queryInPass("SELECT v FROM t WHERE id = 1");
        client(1).queryInPass("SELECT w FROM t WHERE id = 2");
        client(2).queryInPass("SELECT v FROM t WHERE id = 3");

        proxy.pump();

        assertThat(client(0).reply().rows()).containsExactly(List.of("value 1"));
        ClientReply failed = client(1).reply();
        assertThat(failed.isError()).isTrue();
        assertThat(failed.error().errorCode()).isEqualTo(1054);
        assertThat(client(2).reply().rows()).containsExactly(List.of("value 3"));
        assertThat(proxy.run(client(1), "SELECT v FROM t WHERE id = 4").rows()).as("the session goes on")
                .containsExactly(List.of("value 4"));
    }

    @Test
    void aBackendThatClosesFailsEveryStatementInFlightOnceAndRunsNoneAgain() {
        for (int i = 0; i < 3; i++) {
            client(i).queryInPass("SELECT v FROM t WHERE id = " + (i + 1));
        }
        // The pass ends (the statements go out), then the shard goes away before it answers.
        warmUp.channel().runPendingTasks();
        assertThat(proxy.shard(0).hasWaitingCommands()).isTrue();
        proxy.shard(0).dropConnections();
        proxy.pump();

        for (int i = 0; i < 3; i++) {
            ClientReply reply = client(i).reply();
            assertThat(reply.isError()).as("client " + i + ": " + reply).isTrue();
            assertThat(reply.error().errorCode()).isEqualTo(1158);
            assertThat(reply.error().message()).contains("Lost connection to shard 0 during query");
            assertThat(client(i).isOpen()).as("nothing reached the client before: it may go on").isTrue();
        }
        assertThat(proxy.shard(0).received()).as("each went out once, and none again").containsExactly(
                "SELECT v FROM t WHERE id = 1", "SELECT v FROM t WHERE id = 2", "SELECT v FROM t WHERE id = 3");
        assertThat(proxy.pool(warmUp, 0).inUse()).isZero();
        assertThat(proxy.run(client(0), "SELECT v FROM t WHERE id = 5").rows()).containsExactly(List.of("value 5"));
    }

    @Test
    void aClientThatLeavesMidFlightLeavesTheOthersTheirAnswers() {
        for (int i = 0; i < 3; i++) {
            client(i).queryInPass("SELECT v FROM t WHERE id = " + (i + 1));
        }
        client(1).disconnect();

        proxy.pump();

        assertThat(client(0).reply().rows()).containsExactly(List.of("value 1"));
        assertThat(client(2).reply().rows()).containsExactly(List.of("value 3"));
        assertThat(proxy.shard(0).received()).hasSize(3);
        assertThat(proxy.shard(0).openConnections()).as("the shared connection was not closed").isEqualTo(1);
        assertThat(proxy.pool(warmUp, 0).idle()).isEqualTo(1);
        assertThat(proxy.pool(warmUp, 0).inUse()).isZero();
    }

    @Test
    void theLastClientLeavingMidFlightClosesTheConnectionItsAnswerWasDueOn() {
        client(0).queryInPass("SELECT v FROM t WHERE id = 1");
        client(1).queryInPass("SELECT v FROM t WHERE id = 2");
        warmUp.channel().runPendingTasks();
        client(0).disconnect();
        client(1).disconnect();

        proxy.pump();

        assertThat(proxy.pool(warmUp, 0).inUse()).isZero();
        assertThat(proxy.pool(warmUp, 0).open()).as("nobody was left to read its answers").isZero();
        assertThat(proxy.run(client(2), "SELECT v FROM t WHERE id = 3").rows()).containsExactly(List.of("value 3"));
    }

    @Test
    void theDepthCapsHowManyShareOneConnection() {
        FakeProxy shallow = new FakeProxy(config -> config.withPipelineDepth(2));
        shallow.runtime.serveEveryLoopAsOne();
        List<EmbeddedClient> some = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            some.add(shallow.connect());
        }
        for (int id = 1; id <= 3; id++) {
            shallow.shard(0).answer("SELECT v FROM t WHERE id = " + id, ShardReply.rows(
                    List.of(column("v", ColumnType.VAR_STRING)), new String[] {"value " + id}));
        }
        // The first client's loop is the one all share: it warms up, the others send in one pass.
        shallow.run(some.get(0), "SELECT v FROM t WHERE id = 1");
        for (int i = 1; i <= 3; i++) {
            some.get(i).queryInPass("SELECT v FROM t WHERE id = " + i);
        }
        shallow.pump();

        for (int i = 1; i <= 3; i++) {
            assertThat(some.get(i).reply().rows()).containsExactly(List.of("value " + i));
        }
        assertThat(shallow.shard(0).openConnections()).as("two on the first, the third on another: "
                + shallow.shard(0).received()).isEqualTo(2);
        assertThat(shallow.pool(some.get(0), 0).pipelinedStatements()).isEqualTo(1);
    }

    @Test
    void statementsInATransactionOrWithOtherSettingsRunAlone() {
        proxy.shard(0).answer("SELECT v FROM t WHERE id = 3 FOR UPDATE", ShardReply.rows(
                List.of(column("v", ColumnType.VAR_STRING)), new String[] {"value 3"}));
        ClientReply begin = proxy.run(client(1), "BEGIN");
        assertThat(begin.isError()).as(begin.toString()).isFalse();
        for (int s = 0; s < 2; s++) {
            proxy.shard(s).answer("SET @x = 5; SELECT @`x` LIMIT 1", ShardReply.results(ShardReply.ok(),
                    ShardReply.rows(List.of(column("@`x`", ColumnType.LONGLONG)), new String[] {"5"})));
        }
        ClientReply set = proxy.run(client(2), "SET @x = 5");
        assertThat(set.isError()).as(set.toString()).isFalse();
        client(0).queryInPass("SELECT v FROM t WHERE id = 1");
        client(1).queryInPass("SELECT v FROM t WHERE id = 3 FOR UPDATE");
        client(2).queryInPass("SELECT v FROM t WHERE id = 2");
        proxy.pump();

        assertThat(client(0).reply().rows()).containsExactly(List.of("value 1"));
        assertThat(client(1).reply().rows()).containsExactly(List.of("value 3"));
        assertThat(client(2).reply().rows()).containsExactly(List.of("value 2"));
        assertThat(proxy.pool(warmUp, 0).pipelinedStatements()).as("none joined another").isZero();
    }

    @Test
    void nobodyJoinsAConnectionPinnedToAnotherSession() {
        for (int s = 0; s < 2; s++) {
            proxy.shard(s).answer("CREATE TEMPORARY TABLE tmp (a INT)", ShardReply.ok());
        }
        ClientReply created = proxy.run(client(0), "CREATE TEMPORARY TABLE tmp (a INT)");
        assertThat(created.isError()).as(created.toString()).isFalse();
        assertThat(proxy.shard(0).received()).as("the temporary table pins a connection on shard 0")
                .contains("CREATE TEMPORARY TABLE tmp (a INT)");
        int open = proxy.shard(0).openConnections();

        // Client 0's statement runs on its pinned connection, where its temporary table lives:
        // another client's statement must not follow it there (it could read that table).
        client(0).queryInPass("SELECT v FROM t WHERE id = 1");
        client(1).queryInPass("SELECT v FROM t WHERE id = 2");
        proxy.pump();

        assertThat(client(0).reply().rows()).containsExactly(List.of("value 1"));
        assertThat(client(1).reply().rows()).containsExactly(List.of("value 2"));
        assertThat(proxy.pool(warmUp, 0).pipelinedStatements()).as("none joined the pinned connection").isZero();
        assertThat(proxy.shard(0).openConnections()).as("client 1 ran on a connection of its own").isEqualTo(open + 1);
    }

    @Test
    void aWriteGoesBehindReadsButNothingGoesBehindIt() {
        proxy.shard(0).answer("UPDATE t SET v = 'x' WHERE id = 2", ShardReply.ok(1, 0));
        client(0).queryInPass("SELECT v FROM t WHERE id = 1");
        client(1).queryInPass("UPDATE t SET v = 'x' WHERE id = 2");
        client(2).queryInPass("SELECT v FROM t WHERE id = 3");
        proxy.pump();

        assertThat(client(0).reply().rows()).containsExactly(List.of("value 1"));
        assertThat(client(1).reply().ok().affectedRows()).isEqualTo(1);
        assertThat(client(2).reply().rows()).containsExactly(List.of("value 3"));
        assertThat(proxy.pool(warmUp, 0).pipelinedStatements()).as("only the update joined").isEqualTo(1);
        assertThat(proxy.shard(0).openConnections()).isEqualTo(2);
    }

    @Test
    void executesOfAStatementPreparedOnTheConnectionShareIt() {
        String sql = "SELECT v FROM t WHERE id = ?";
        proxy.shard(0).answer(sql, ShardReply.rows(List.of(column("v", ColumnType.VAR_STRING)),
                new String[] {"by id"}));
        long[] ids = new long[3];
        for (int i = 0; i < 3; i++) {
            ids[i] = proxy.prepare(client(i), sql).statementId();
        }
        // Prepared on the shard's connection by a first execute, which leaves it idle.
        execute(client(0), ids[0], 1);
        proxy.pump();
        client(0).frames().forEach(io.netty.buffer.ByteBuf::release);
        proxy.shard(0).forget();
        int connections = proxy.shard(0).openConnections();

        for (int i = 0; i < 3; i++) {
            executeInPass(client(i), ids[i], i + 1);
        }
        proxy.pump();

        for (int i = 0; i < 3; i++) {
            List<io.netty.buffer.ByteBuf> frames = client(i).frames();
            assertThat(frames).as("client " + i + " got its answer").isNotEmpty();
            assertThat(io.cleave.proxy.protocol.Frames.firstByte(frames.get(0))).isNotEqualTo(0xff);
            EmbeddedClient.release(frames);
        }
        assertThat(proxy.shard(0).received()).containsExactly("COM_STMT_EXECUTE " + sql, "COM_STMT_EXECUTE " + sql,
                "COM_STMT_EXECUTE " + sql);
        assertThat(proxy.pool(warmUp, 0).pipelinedStatements()).isEqualTo(2);
        assertThat(proxy.shard(0).openConnections()).isEqualTo(connections);
    }

    private static byte[] executeBody(long statementId, long id) {
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(4 + 1 + 4 + 1 + 1 + 2 + 8)
                .order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.putInt((int) statementId).put((byte) 0).putInt(1).put((byte) 0).put((byte) 1).putShort((short) 8).putLong(id);
        return b.array();
    }

    private static void execute(EmbeddedClient client, long statementId, long id) {
        client.send(CommandCode.STMT_EXECUTE, executeBody(statementId, id));
    }

    private static void executeInPass(EmbeddedClient client, long statementId, long id) {
        client.sendInPass(CommandCode.STMT_EXECUTE, executeBody(statementId, id));
    }
}
