package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Reads of no table go where their answer is one server's: sequences, system variables, the
 * catalog and stored functions to the default shard (never in turn to each shard, where answers
 * differ); only what every shard answers alike goes to any.
 */
class CatalogReadFlowTest {

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    private void answerEverySelect(String value) {
        for (int s = 0; s < 2; s++) {
            proxy.shard(s).answerStartingWith("SELECT", ShardReply.rows(List.of(column("v", ColumnType.LONGLONG)),
                    new String[] {value}));
        }
    }

    private List<String> selects(int shard) {
        return proxy.shard(shard).queries().stream().filter(q -> q.startsWith("SELECT")).toList();
    }

    @Test
    void sequencesCatalogReadsAndStoredFunctionsGoToTheDefaultShardEveryTime() {
        answerEverySelect("1");
        List<String> reads = List.of("SELECT NEXTVAL(rs3)", "SELECT NEXT VALUE FOR rs3",
                "SELECT COUNT(*) FROM information_schema.TABLES WHERE TABLE_TYPE = 'SEQUENCE'", "SELECT @@server_id",
                "SELECT my_function(2)");
        for (int round = 0; round < 2; round++) {
            for (String read : reads) {
                assertThat(proxy.run(client, read).rows()).containsExactly(List.of("1"));
            }
        }

        assertThat(selects(0)).hasSize(2 * reads.size());
        assertThat(selects(1)).isEmpty();
    }

    @Test
    void whatEveryShardAnswersAlikeStillGoesToAny() {
        answerEverySelect("2");

        proxy.run(client, "SELECT 1 + 1");
        proxy.run(client, "SELECT CONCAT('a', 'b')");

        assertThat(selects(0)).hasSize(1);
        assertThat(selects(1)).hasSize(1);
    }

    @Test
    void theAutoIncrementStepReadsAsOneServersSessionHasIt() {
        answerEverySelect("1");

        assertThat(proxy.run(client, "SELECT @@auto_increment_increment").rows()).containsExactly(List.of("1"));

        assertThat(proxy.shard(0).queries()).containsSubsequence(
                "SET @@session.auto_increment_increment=1, @@session.auto_increment_offset=1",
                "SELECT @@auto_increment_increment");
    }

    @Test
    void showDatabasesDoesNotListTheProxysOwnSchema() {
        proxy.shard(0).answer("SHOW DATABASES", ShardReply.rows(List.of(column("Database", ColumnType.VAR_STRING)),
                new String[] {"app"}, new String[] {"cleave"}, new String[] {"information_schema"}));

        ClientReply reply = proxy.run(client, "SHOW DATABASES");

        assertThat(reply.results().get(0).columns()).containsExactly("Database");
        assertThat(reply.rows()).containsExactly(List.of("app"), List.of("information_schema"));
        assertThat(proxy.shard(1).queries()).isEmpty();
    }
}
