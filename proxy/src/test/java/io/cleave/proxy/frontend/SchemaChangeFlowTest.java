package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.server.SchemaDriftLog;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A structure change is all or nothing for the client: the default shard goes first and its
 * refusal is the answer with nothing changed; a refusal on another shard is undone by the
 * change's inverse where it applied, or, without one, recorded as drift for 'cleave repair'.
 */
class SchemaChangeFlowTest {

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();
    private final List<SchemaDriftLog.UnfinishedChange> drift = new ArrayList<>();

    {
        proxy.runtime.schemaDriftLog(drift::add);
    }

    @Test
    void aRefusalOnTheDefaultShardReachesNoOtherShard() {
        proxy.shard(0).answer("CREATE TABLE x (id INT)", ShardReply.error(1050, "42S01", "Table 'x' already exists"));

        ClientReply reply = proxy.run(client, "CREATE TABLE x (id INT)");

        assertThat(reply.error().errorCode()).isEqualTo(1050);
        assertThat(reply.error().message()).isEqualTo("Table 'x' already exists");
        assertThat(proxy.shard(1).queries()).isEmpty();
        assertThat(drift).isEmpty();
    }

    @Test
    void aCreateRefusedOnAnotherShardIsDroppedAgainWhereItApplied() {
        proxy.shard(0).answer("CREATE TABLE x (id INT)", ShardReply.ok());
        proxy.shard(0).answer("DROP TABLE `x`", ShardReply.ok());
        proxy.shard(1).answer("CREATE TABLE x (id INT)", ShardReply.error(1050, "42S01", "Table 'x' already exists"));

        ClientReply reply = proxy.run(client, "CREATE TABLE x (id INT)");

        assertThat(reply.error().errorCode()).isEqualTo(1050);
        assertThat(reply.error().message()).startsWith("Table 'x' already exists (on shard(s) [1]")
                .contains("undone on shard(s) [0]");
        assertThat(proxy.shard(0).queries()).containsSubsequence("CREATE TABLE x (id INT)", "DROP TABLE `x`");
        assertThat(drift).isEmpty();
    }

    @Test
    void aDropRefusedOnAnotherShardIsRecordedForRepair() {
        proxy.shard(0).answer("DROP TABLE x", ShardReply.ok());
        proxy.shard(1).answer("DROP TABLE x", ShardReply.error(1451, "23000", "Cannot delete or update a parent row"));

        ClientReply reply = proxy.run(client, "DROP TABLE x");

        assertThat(reply.error().errorCode()).isEqualTo(1451);
        assertThat(reply.error().message()).contains("applied on shard(s) [0] but failed on shard(s) [1]")
                .contains("cleave repair");
        assertThat(drift).singleElement().satisfies(d -> {
            assertThat(d.statement()).isEqualTo("DROP TABLE x");
            assertThat(d.schema()).isEqualTo("app");
            assertThat(d.applied()).containsExactly(0);
            assertThat(d.failed()).containsExactly(1);
        });
    }
}
