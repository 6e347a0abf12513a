package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A client that goes away while its statement runs: outside a transaction the statement ends on
 * its shard and the connection goes back to the pool; inside one, the transaction's connection is
 * closed (which rolls it back), so no shard keeps anything of it.
 */
class DisconnectFlowTest {

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    @Test
    void aStatementInFlightFinishesAndItsConnectionIsPooledAgain() {
        proxy.shard(0).answer("SELECT v FROM t WHERE id = 5", ShardReply.ok());
        client.query("SELECT v FROM t WHERE id = 5");
        assertThat(proxy.shard(0).hasWaitingCommands()).isTrue();

        client.disconnect();
        proxy.pump();

        assertThat(proxy.shard(0).received()).containsExactly("COM_INIT_DB app", "SELECT v FROM t WHERE id = 5");
        assertThat(proxy.pool(client, 0).inUse()).isZero();
        assertThat(proxy.pool(client, 0).idle()).as("usable by the next client").isEqualTo(1);
    }

    @Test
    void anOpenTransactionDiesWithItsClient() {
        proxy.shard(0).answer("UPDATE t SET v = 'a' WHERE id = 5", ShardReply.ok(1, 0));
        proxy.shard(0).answer("UPDATE t SET v = 'b' WHERE id = 6", ShardReply.ok(1, 0));
        proxy.run(client, "BEGIN");
        proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5");
        client.query("UPDATE t SET v = 'b' WHERE id = 6");

        client.disconnect();
        proxy.pump();

        assertThat(proxy.shard(0).openConnections()).as("closed, which rolls the transaction back").isZero();
        assertThat(proxy.shard(0).queries()).doesNotContain("COMMIT");
        assertThat(proxy.pool(client, 0).open()).isZero();
        assertThat(proxy.pool(client, 0).inUse()).isZero();
    }
}
