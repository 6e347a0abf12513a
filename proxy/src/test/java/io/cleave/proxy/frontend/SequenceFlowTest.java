package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.BackendPool;
import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * MariaDB sequences live on the default shard: created on every shard (so columns whose DEFAULT
 * draws from them can be created everywhere), drawn from and read only on the default shard, on
 * the session's own connection there (LASTVAL is the connection's); rows of a sharded table that
 * leave such a column out get values drawn there first.
 */
class SequenceFlowTest {

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    @Test
    void aSequenceIsCreatedOnEveryShard() {
        proxy.shard(0).answer("CREATE SEQUENCE rs3", ShardReply.ok());
        proxy.shard(1).answer("CREATE SEQUENCE rs3", ShardReply.ok());

        assertThat(proxy.run(client, "CREATE SEQUENCE rs3").isOk()).isTrue();

        assertThat(proxy.shard(0).queries()).contains("CREATE SEQUENCE rs3");
        assertThat(proxy.shard(1).queries()).contains("CREATE SEQUENCE rs3");
    }

    @Test
    void nextvalAndLastvalRunOnTheSessionsOwnDefaultShardConnection() {
        proxy.shard(0).answerStartingWith("SELECT", ShardReply.rows(List.of(column("v", ColumnType.LONGLONG)),
                new String[] {"1"}));

        proxy.run(client, "SELECT NEXTVAL(rs3)");
        BackendPool pool = proxy.pool(client, 0);
        assertThat(pool.open() - pool.idle()).as("kept by the session for its LASTVAL").isEqualTo(1);
        proxy.run(client, "SELECT PREVIOUS VALUE FOR rs3");
        proxy.run(client, "SELECT LASTVAL(rs3)");

        assertThat(pool.open()).as("one connection served them all").isEqualTo(1);
        assertThat(proxy.shard(1).queries()).isEmpty();
    }

    @Test
    void rowsOfAShardedTableThatLeaveOutASequenceColumnGetValuesFromTheDefaultShard() {
        proxy.shard(0).answerStartingWith("SELECT COLUMN_NAME, EXTRA, COLUMN_DEFAULT FROM information_schema.COLUMNS",
                ShardReply.rows(List.of(column("COLUMN_NAME", ColumnType.VAR_STRING),
                        column("EXTRA", ColumnType.VAR_STRING), column("COLUMN_DEFAULT", ColumnType.VAR_STRING)),
                        new String[] {"id", "", null}, new String[] {"v", "", "nextval(`app`.`rs2`)"}));
        proxy.shard(0).answer("SELECT nextval(`app`.`rs2`), nextval(`app`.`rs2`)", ShardReply.rows(
                List.of(column("a", ColumnType.LONGLONG), column("b", ColumnType.LONGLONG)), new String[] {"7", "8"}));
        proxy.shard(1).answerStartingWith("INSERT INTO t", ShardReply.ok(2, 0));

        ClientReply reply = proxy.run(client, "INSERT INTO t (id) VALUES (150), (151)");

        assertThat(reply.isOk()).as(reply.toString()).isTrue();
        assertThat(proxy.shard(1).queries()).contains("INSERT INTO t (id, `v`) VALUES (150, '7'),(151, '8') ");
    }

    @Test
    void aStatementThatWouldDrawOnAnotherShardIsRefused() {
        ClientReply reply = proxy.run(client, "INSERT INTO t (id, v) VALUES (150, NEXTVAL(rs2))");

        assertThat(reply.error().errorCode()).isEqualTo(1235);
        assertThat(reply.error().message()).contains("a sequence lives on the default shard");
        assertThat(proxy.shard(1).queries()).isEmpty();
    }
}
