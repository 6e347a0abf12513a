package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The application's XA transactions: a branch lives on the shard of its first statement, its XA
 * statements go there and the server answers them; what would take it to a second shard is
 * refused; a prepared branch is ended from any session on the shard that holds it; XA RECOVER
 * lists the application's branches of every shard and never the proxy's own.
 */
class ApplicationXaFlowTest {

    private static final List<ShardReply.Column> RECOVER = List.of(column("formatID", ColumnType.LONGLONG),
            column("gtrid_length", ColumnType.LONGLONG), column("bqual_length", ColumnType.LONGLONG),
            column("data", ColumnType.VAR_STRING));

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    private void shardsAcceptXa() {
        // Table t's columns, looked up on its first insert.
        proxy.shard(0).answerStartingWith("SELECT COLUMN_NAME, EXTRA, COLUMN_DEFAULT FROM information_schema.COLUMNS",
                ShardReply.rows(List.of(column("COLUMN_NAME", ColumnType.VAR_STRING), column("EXTRA", ColumnType.VAR_STRING),
                        column("COLUMN_DEFAULT", ColumnType.VAR_STRING)), new String[] {"id", "", null},
                        new String[] {"v", "", null}));
        for (int s = 0; s < 2; s++) {
            proxy.shard(s).answerStartingWith("XA START", ShardReply.ok());
            proxy.shard(s).answerStartingWith("XA END", ShardReply.ok());
            proxy.shard(s).answerStartingWith("XA PREPARE", ShardReply.ok());
            proxy.shard(s).answerStartingWith("XA COMMIT", ShardReply.ok());
            proxy.shard(s).answerStartingWith("INSERT INTO t", ShardReply.ok(1, 0));
        }
    }

    private List<String> xaAndWrites(int shard) {
        return proxy.shard(shard).queries().stream().filter(q -> q.startsWith("XA") || q.startsWith("INSERT")).toList();
    }

    @Test
    void aBranchLivesOnTheShardOfItsFirstStatement() {
        shardsAcceptXa();

        assertThat(proxy.run(client, "XA START 'x1'").isOk()).isTrue();
        assertThat(proxy.shard(1).queries()).as("XA START waits for a statement").isEmpty();
        assertThat(proxy.run(client, "INSERT INTO t (id, v) VALUES (150, 'a')").isOk()).isTrue();
        assertThat(proxy.run(client, "XA END 'x1'").isOk()).isTrue();
        assertThat(proxy.run(client, "XA PREPARE 'x1'").isOk()).isTrue();
        assertThat(proxy.run(client, "XA COMMIT 'x1'").isOk()).isTrue();

        assertThat(xaAndWrites(1)).containsExactly("XA START 'x1'", "INSERT INTO t (id, v) VALUES (150, 'a') ",
                "XA END 'x1'", "XA PREPARE 'x1'", "XA COMMIT 'x1'");
        assertThat(xaAndWrites(0)).isEmpty();
    }

    @Test
    void aStatementThatWouldTakeTheBranchToAnotherShardIsRefused() {
        shardsAcceptXa();
        proxy.run(client, "XA START 'x2'");
        proxy.run(client, "INSERT INTO t (id, v) VALUES (150, 'a')");

        ClientReply reply = proxy.run(client, "INSERT INTO t (id, v) VALUES (5, 'b')");

        assertThat(reply.error().errorCode()).isEqualTo(1235);
        assertThat(reply.error().message()).contains("XA transaction 'x2' is on shard 1");
        assertThat(xaAndWrites(0)).isEmpty();
    }

    @Test
    void transactionControlAndCommitsOutOfStateGetTheServersErrors() {
        shardsAcceptXa();
        proxy.run(client, "XA START 'x3'");

        assertThat(proxy.run(client, "COMMIT").error().message())
                .isEqualTo("XAER_RMFAIL: The command cannot be executed when global transaction is in the  ACTIVE state");
        assertThat(proxy.run(client, "XA START 'x4'").error().errorCode()).isEqualTo(1399);
        assertThat(proxy.run(client, "XA END 'x9'").error().errorCode()).isEqualTo(1397);
        proxy.run(client, "INSERT INTO t (id, v) VALUES (150, 'a')");
        proxy.run(client, "XA END 'x3'");
        assertThat(proxy.run(client, "INSERT INTO t (id, v) VALUES (151, 'b')").error().message()).endsWith("IDLE state");
        assertThat(proxy.run(client, "XA COMMIT 'x3'").error().message()).endsWith("IDLE state");
        assertThat(proxy.run(client, "XA COMMIT 'x3' ONE PHASE").isOk()).isTrue();
        assertThat(xaAndWrites(1)).endsWith("XA END 'x3'", "XA COMMIT 'x3' ONE PHASE");
    }

    @Test
    void aBranchPreparedElsewhereIsEndedOnTheShardHoldingIt() {
        shardsAcceptXa();
        proxy.shard(0).answer("XA RECOVER", ShardReply.rows(RECOVER, new String[] {"1", "18", "0", "cleave:0:abc:1:1234"}));
        proxy.shard(1).answer("XA RECOVER", ShardReply.rows(RECOVER, new String[] {"1", "2", "1", "x5b"}));

        ClientReply recovered = proxy.run(client, "XA RECOVER");
        ClientReply committed = proxy.run(client, "XA COMMIT 'x5', 'b'");

        assertThat(recovered.rows()).as("the proxy's own branches are not the application's")
                .containsExactly(List.of("1", "2", "1", "x5b"));
        assertThat(committed.isOk()).as(committed.toString()).isTrue();
        assertThat(xaAndWrites(1)).endsWith("XA COMMIT 'x5', 'b'");
        assertThat(xaAndWrites(0)).noneMatch(q -> q.startsWith("XA COMMIT"));
    }
}
