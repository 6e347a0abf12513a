package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/** A statement with its sharding key goes to its shard as the client sent it, and the answer comes back as is. */
class SingleShardRelayFlowTest {

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    @Test
    void aKeyedReadIsRelayedToItsShardOnly() {
        proxy.shard(1).answer("SELECT v FROM t WHERE id = 150", ShardReply.rows(
                List.of(column("v", ColumnType.VAR_STRING)), new String[] {"one fifty"}));

        ClientReply reply = proxy.run(client, "SELECT v FROM t WHERE id = 150");

        assertThat(reply.rows()).containsExactly(List.of("one fifty"));
        assertThat(reply.results().get(0).columns()).containsExactly("v");
        // A fresh connection is brought to the session's schema first, then gets the client's own text.
        assertThat(proxy.shard(1).received()).containsExactly("COM_INIT_DB app", "SELECT v FROM t WHERE id = 150");
        assertThat(proxy.shard(0).received()).isEmpty();
        assertThat(proxy.pool(client, 1).idle()).as("the connection went back to the pool").isEqualTo(1);
    }

    @Test
    void everyResultSetOfAMultiStatementIsRelayed() {
        proxy.shard(1).answer("SELECT 1 FROM settings; SELECT 2 FROM settings", ShardReply.results(
                ShardReply.rows(List.of(column("1", ColumnType.LONGLONG)), new String[] {"1"}),
                ShardReply.rows(List.of(column("2", ColumnType.LONGLONG)), new String[] {"2"}),
                ShardReply.ok()));

        ClientReply reply = proxy.run(client, "SELECT 1 FROM settings; SELECT 2 FROM settings");

        assertThat(reply.isError()).as(reply.toString()).isFalse();
        assertThat(reply.results()).hasSize(2);
        assertThat(reply.results().get(0).rows()).containsExactly(List.of("1"));
        assertThat(reply.results().get(1).rows()).containsExactly(List.of("2"));
        assertThat(reply.ok()).as("the final OK of the multi-statement").isNotNull();
    }

    @Test
    void aShardsErrorReachesTheClientAndTheSessionGoesOn() {
        proxy.shard(0).answer("SELECT v FROM t WHERE id = 5", ShardReply.error(1054, "42S22",
                "Unknown column 'v' in 'field list'"));
        proxy.shard(0).answer("SELECT w FROM t WHERE id = 5", ShardReply.rows(
                List.of(column("w", ColumnType.VAR_STRING)), new String[] {null}));

        ClientReply failed = proxy.run(client, "SELECT v FROM t WHERE id = 5");
        ClientReply next = proxy.run(client, "SELECT w FROM t WHERE id = 5");

        assertThat(failed.isError()).isTrue();
        assertThat(failed.error().errorCode()).isEqualTo(1054);
        assertThat(failed.error().sqlState()).isEqualTo("42S22");
        assertThat(next.rows()).containsExactly(java.util.Arrays.asList((String) null));
        assertThat(proxy.pool(client, 0).open()).as("one connection served both").isEqualTo(1);
    }

    @Test
    void pipelinedCommandsRunOneAtATimeInOrder() {
        proxy.shard(0).answer("SELECT v FROM t WHERE id = 5", ShardReply.rows(
                List.of(column("v", ColumnType.VAR_STRING)), new String[] {"five"}));
        proxy.shard(1).answer("SELECT v FROM t WHERE id = 150", ShardReply.rows(
                List.of(column("v", ColumnType.VAR_STRING)), new String[] {"one fifty"}));

        client.query("SELECT v FROM t WHERE id = 5");
        client.query("SELECT v FROM t WHERE id = 150");
        assertThat(proxy.shard(1).received()).as("the second waits for the first").isEmpty();
        proxy.pump();

        List<io.netty.buffer.ByteBuf> frames = client.frames();
        try {
            // Two replies, each numbered from 1: the first one's result set, then the second's.
            int second = 0;
            for (int i = 1; i < frames.size(); i++) {
                if (io.cleave.proxy.protocol.Frames.sequence(frames.get(i)) == 1) {
                    second = i;
                }
            }
            assertThat(second).isPositive();
            assertThat(ClientReply.decode(frames.subList(0, second), client.capabilities()).rows())
                    .containsExactly(List.of("five"));
            assertThat(ClientReply.decode(frames.subList(second, frames.size()), client.capabilities()).rows())
                    .containsExactly(List.of("one fifty"));
        } finally {
            EmbeddedClient.release(frames);
        }
    }

    @Test
    void aStatementOfSixteenMegabytesOrMoreIsJoinedAndRelayedWhole() {
        String value = "x".repeat(16 * 1024 * 1024);
        String sql = "INSERT INTO settings (v) VALUES ('" + value + "')";
        proxy.shard(1).answer(sql, ShardReply.ok(1, 0));

        ClientReply reply = proxy.run(client, sql);

        assertThat(reply.isOk()).as(reply.toString()).isTrue();
        assertThat(proxy.shard(1).queries()).last().asString().hasSize(sql.length());
    }

    @Test
    void aShardThatGoesAwayMidStatementIsAnErrorNotAHang() {
        proxy.shard(0).answer("SELECT v FROM t WHERE id = 5", ShardReply.noAnswer());
        client.query("SELECT v FROM t WHERE id = 5");
        proxy.pump();
        assertThat(client.hasReply()).as("waiting for the shard").isFalse();

        proxy.shard(0).dropConnections();
        ClientReply reply = client.reply();

        assertThat(reply.error().errorCode()).isEqualTo(1158);
        assertThat(reply.error().message()).startsWith("Lost connection to shard 0 during query");
        assertThat(client.isOpen()).as("nothing was relayed yet: the session goes on").isTrue();
        assertThat(proxy.pool(client, 0).open()).isZero();
        proxy.shard(0).answer("SELECT w FROM t WHERE id = 6", ShardReply.ok());
        assertThat(proxy.run(client, "SELECT w FROM t WHERE id = 6").isOk()).isTrue();
    }
}
