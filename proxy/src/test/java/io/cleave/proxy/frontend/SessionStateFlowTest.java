package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.Capabilities;
import io.cleave.proxy.protocol.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The session's state follows it from connection to connection: what a SET established (read
 * back from the shard that ran it), the schema of USE, variables a statement assigned, autocommit.
 */
class SessionStateFlowTest {

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    @Test
    void aVariableSetOnOneShardIsReplayedOnAnother() {
        for (int s = 0; s < 2; s++) {
            proxy.shard(s).answer("SET @x = 5; SELECT @`x` LIMIT 1", ShardReply.results(ShardReply.ok(),
                    ShardReply.rows(List.of(column("@`x`", ColumnType.LONGLONG)), new String[] {"5"})));
        }
        proxy.shard(0).answer("SELECT v FROM t WHERE id = 5", ShardReply.ok());
        proxy.shard(1).answer("SELECT v FROM t WHERE id = 150", ShardReply.ok());

        assertThat(proxy.run(client, "SET @x = 5").isOk()).isTrue();
        proxy.run(client, "SELECT v FROM t WHERE id = 5");
        proxy.run(client, "SELECT v FROM t WHERE id = 150");

        int ranSet = proxy.shard(0).queries().contains("SET @x = 5; SELECT @`x` LIMIT 1") ? 0 : 1;
        int other = 1 - ranSet;
        assertThat(proxy.shard(other).queries()).as("the other shard's connection gets the value first")
                .containsSubsequence("SET @x=5", "SELECT v FROM t WHERE id = " + (other == 0 ? 5 : 150));
        assertThat(proxy.shard(ranSet).queries()).as("the connection that ran the SET has it already")
                .doesNotContain("SET @x=5");
    }

    @Test
    void useChecksTheSchemaOnOneShardAndTheOthersFollow() {
        proxy.shard(0).answer("USE `other`", ShardReply.ok());
        proxy.shard(1).answer("USE `other`", ShardReply.ok());
        proxy.shard(0).answer("SELECT v FROM t WHERE id = 5", ShardReply.ok());
        proxy.shard(1).answer("SELECT v FROM t WHERE id = 150", ShardReply.ok());

        assertThat(proxy.run(client, "USE other").isOk()).isTrue();
        proxy.run(client, "SELECT v FROM t WHERE id = 5");
        proxy.run(client, "SELECT v FROM t WHERE id = 150");

        List<String> all = new java.util.ArrayList<>(proxy.shard(0).received());
        all.addAll(proxy.shard(1).received());
        assertThat(all).filteredOn(s -> s.equals("USE `other`")).hasSize(1);
        int used = proxy.shard(0).received().contains("USE `other`") ? 0 : 1;
        assertThat(proxy.shard(1 - used).received()).contains("COM_INIT_DB other");
    }

    @Test
    void variablesAStatementAssignsAreReadBackFromItsConnection() {
        proxy.shard(0).answer("SELECT @n := v FROM t WHERE id = 5", ShardReply.rows(
                List.of(column("@n := v", ColumnType.VAR_STRING)), new String[] {"seven"}));
        // LIMIT 1 whatever sql_select_limit says.
        proxy.shard(0).answer("SELECT @`n` LIMIT 1", ShardReply.rows(List.of(column("@`n`", ColumnType.VAR_STRING)),
                new String[] {"seven"}));
        proxy.shard(1).answer("SELECT v FROM t WHERE id = 150", ShardReply.ok());

        assertThat(proxy.run(client, "SELECT @n := v FROM t WHERE id = 5").rows()).containsExactly(List.of("seven"));
        proxy.run(client, "SELECT v FROM t WHERE id = 150");

        assertThat(proxy.shard(0).queries()).containsExactly("SELECT @n := v FROM t WHERE id = 5", "SELECT @`n` LIMIT 1");
        assertThat(proxy.shard(1).queries()).containsExactly("SET @n='seven'", "SELECT v FROM t WHERE id = 150");
    }

    @Test
    void autocommitOffIsCarriedToTheShardAndCommitEndsTheTransaction() {
        proxy.shard(0).answer("UPDATE t SET v = 'a' WHERE id = 5", ShardReply.ok(1, 0));

        ClientReply off = proxy.run(client, "SET autocommit = 0");
        assertThat(off.isOk()).isTrue();
        assertThat(proxy.shard(0).received()).as("set without a round trip").isEmpty();
        assertThat(proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5").inTransaction()).isTrue();
        assertThat(proxy.run(client, "COMMIT").inTransaction()).isFalse();

        assertThat(proxy.shard(0).queries()).containsExactly("SET autocommit=0", "UPDATE t SET v = 'a' WHERE id = 5",
                "COMMIT");
    }

    @Test
    void severalStatementsInOneQueryAreASyntaxErrorWhenTheClientDidNotAskForThem() {
        EmbeddedClient single = proxy.connect(FakeProxy.CLIENT.without(Capabilities.MULTI_STATEMENTS));

        ClientReply reply = proxy.run(single, "SELECT 1 FROM settings; SELECT 2 FROM settings");

        assertThat(reply.error().errorCode()).isEqualTo(1064);
        assertThat(reply.error().message()).contains("near 'SELECT 2 FROM settings'");
        assertThat(proxy.shard(1).received()).isEmpty();
    }

    @Test
    void rowCountReadsTheSessionsPreviousStatementWhicheverShardRanIt() {
        proxy.shard(0).answer("UPDATE t SET v = 'a' WHERE id = 5", ShardReply.ok(3, 0));
        proxy.shard(1).answer("SELECT v FROM t WHERE id = 150", ShardReply.rows(
                List.of(column("v", ColumnType.VAR_STRING)), new String[] {"b"}));

        assertThat(proxy.run(client, "SELECT ROW_COUNT()").rows()).as("nothing ran yet").containsExactly(List.of("-1"));
        proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5");
        assertThat(proxy.run(client, "SELECT ROW_COUNT() AS n").rows()).containsExactly(List.of("3"));
        assertThat(proxy.run(client, "SELECT ROW_COUNT()").rows()).as("after a result set")
                .containsExactly(List.of("-1"));
        proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5");
        proxy.run(client, "SELECT v FROM t WHERE id = 150");
        assertThat(proxy.run(client, "SELECT ROW_COUNT()").rows()).as("a result set on another shard came last")
                .containsExactly(List.of("-1"));
        assertThat(proxy.run(client, "SET autocommit = 1").isOk()).isTrue();
        assertThat(proxy.run(client, "SELECT ROW_COUNT()").rows()).containsExactly(List.of("0"));
    }

    @Test
    void aSetWithItsOwnTrailingSemicolonIsReadBackAsWithout() {
        // Django's flush sends it so; the read-back the proxy adds must not follow an empty statement.
        for (int s = 0; s < 2; s++) {
            proxy.shard(s).answer("SET FOREIGN_KEY_CHECKS = 0; SELECT @@session.foreign_key_checks LIMIT 1",
                    ShardReply.results(ShardReply.ok(), ShardReply.rows(
                            List.of(column("@@session.foreign_key_checks", ColumnType.LONGLONG)), new String[] {"0"})));
        }

        ClientReply reply = proxy.run(client, "SET FOREIGN_KEY_CHECKS = 0;  -- flush\n");

        assertThat(reply.isOk()).as(reply.toString()).isTrue();
    }
}
