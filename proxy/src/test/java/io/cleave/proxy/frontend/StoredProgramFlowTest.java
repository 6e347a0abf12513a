package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.router.topology.RoutineRule;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * CALL runs where its procedure sees what one server would show it: on the default shard when the
 * procedure names only what lives there, on its declared key's shard, else it is refused naming the
 * procedure. Its answer (several results) is relayed as the shard sends it, and the user variables
 * it may set are read back for the session.
 */
class StoredProgramFlowTest {

    private static final String CATALOG = "SELECT r.ROUTINE_SCHEMA, r.ROUTINE_NAME";
    private static final List<ShardReply.Column> ROUTINE_COLUMNS = List.of(column("ROUTINE_SCHEMA", ColumnType.VAR_STRING),
            column("ROUTINE_NAME", ColumnType.VAR_STRING), column("ROUTINE_TYPE", ColumnType.VAR_STRING),
            column("ROUTINE_DEFINITION", ColumnType.VAR_STRING), column("SQL_MODE", ColumnType.VAR_STRING),
            column("PARAMETERS", ColumnType.VAR_STRING));

    private static String[] procedure(String name, String parameters, String body) {
        return new String[] {"app", name, "PROCEDURE", body, "STRICT_TRANS_TABLES", parameters};
    }

    private static final String[] LOG_COUNT = procedure("log_count", "a\nb",
            "BEGIN SELECT COUNT(*) FROM orders_log; SET b = a + 1; SET @seen = a; END");
    private static final String[] TOUCHES_T = procedure("touch_t", "a", "BEGIN UPDATE t SET v = v + 1 WHERE id = a; END");
    private static final String[] BY_KEY = procedure("by_key", "x\ncid", "UPDATE t SET v = x WHERE id = cid");
    private static final String[] COMMITS = procedure("archive", "", "BEGIN INSERT INTO archive_log VALUES (1); COMMIT; END");

    private FakeProxy proxy = new FakeProxy();
    private EmbeddedClient client = proxy.connect();

    private void catalog(String[]... routines) {
        proxy.shard(0).answerStartingWith(CATALOG, ShardReply.rows(ROUTINE_COLUMNS, routines));
    }

    @Test
    void aProcedureOverTheDefaultShardsTablesRunsThereAndItsVariablesFollowTheSession() {
        catalog(LOG_COUNT, TOUCHES_T);
        proxy.shard(0).answer("CALL log_count(5, @out)", ShardReply.results(
                ShardReply.rows(List.of(column("COUNT(*)", ColumnType.LONGLONG)), new String[] {"3"}), ShardReply.ok()));
        proxy.shard(0).answer("SELECT @`out`, @`seen` LIMIT 1", ShardReply.rows(List.of(
                column("@`out`", ColumnType.LONGLONG), column("@`seen`", ColumnType.LONGLONG)), new String[] {"6", "5"}));
        proxy.shard(1).answer("SELECT v FROM t WHERE id = 150", ShardReply.ok());

        ClientReply reply = proxy.run(client, "CALL log_count(5, @out)");
        proxy.run(client, "SELECT v FROM t WHERE id = 150");

        assertThat(reply.ok()).as(reply.toString()).isNotNull();
        assertThat(reply.rows()).containsExactly(List.of("3"));
        assertThat(proxy.shard(0).queries()).containsSubsequence(
                "SET @@session.auto_increment_increment=1, @@session.auto_increment_offset=1", "CALL log_count(5, @out)",
                "SELECT @`out`, @`seen` LIMIT 1");
        assertThat(proxy.shard(1).queries()).as("the variables the procedure set follow the session")
                .anySatisfy(q -> assertThat(q).contains("@out=6").contains("@seen=5"));
    }

    @Test
    void aProcedureNamingAShardedTableIsRefusedNamingIt() {
        catalog(LOG_COUNT, TOUCHES_T);

        ClientReply reply = proxy.run(client, "CALL touch_t(5)");

        assertThat(reply.error().errorCode()).isEqualTo(1235);
        assertThat(reply.error().message()).contains("CALL touch_t").contains("names t, sharded by id")
                .contains("sharding.routines");
        assertThat(proxy.shard(0).queries()).noneMatch(q -> q.startsWith("CALL"));
        assertThat(proxy.shard(1).queries()).isEmpty();
    }

    @Test
    void aProcedureDeclaredToTakeAKeyRunsOnThatKeysShard() {
        proxy = FakeProxy.withRoutines(new RoutineRule("by_key", "customer", "cid"));
        client = proxy.connect();
        catalog(BY_KEY);
        proxy.shard(0).answer("CALL by_key(1, 5)", ShardReply.ok(1, 0));
        proxy.shard(1).answer("CALL by_key(1, 150)", ShardReply.ok(1, 0));

        assertThat(proxy.run(client, "CALL by_key(1, 150)").isOk()).isTrue();
        assertThat(proxy.run(client, "CALL by_key(1, 5)").isOk()).isTrue();

        assertThat(proxy.shard(1).queries()).filteredOn(q -> q.startsWith("CALL")).containsExactly("CALL by_key(1, 150)");
        assertThat(proxy.shard(0).queries()).filteredOn(q -> q.startsWith("CALL")).containsExactly("CALL by_key(1, 5)");
        ClientReply fromVariable = proxy.run(client, "CALL by_key(1, @c)");
        assertThat(fromVariable.error().message()).contains("must be a literal or a parameter marker");
    }

    @Test
    void aDriversCallprocInOneQueryRunsWhereTheProcedureRuns() {
        catalog(LOG_COUNT);
        String text = "SET @`_log_count_0`=7,@`_log_count_1`=NULL;CALL `log_count`(@`_log_count_0`,@`_log_count_1`)";
        proxy.shard(0).answer(text, ShardReply.results(ShardReply.ok(),
                ShardReply.rows(List.of(column("COUNT(*)", ColumnType.LONGLONG)), new String[] {"3"}), ShardReply.ok()));
        proxy.shard(0).answer("SELECT @`_log_count_0`, @`_log_count_1`, @`seen` LIMIT 1", ShardReply.rows(List.of(
                column("a", ColumnType.LONGLONG), column("b", ColumnType.LONGLONG), column("c", ColumnType.LONGLONG)),
                new String[] {"7", "8", "7"}));

        ClientReply reply = proxy.run(client, text);

        assertThat(reply.ok()).as(reply.toString()).isNotNull();
        assertThat(reply.rows()).containsExactly(List.of("3"));
        assertThat(proxy.shard(0).queries()).contains(text, "SELECT @`_log_count_0`, @`_log_count_1`, @`seen` LIMIT 1");
        assertThat(proxy.shard(1).queries()).isEmpty();
    }

    @Test
    void aProcedureTheCatalogDoesNotListIsLeftToTheDefaultShardToRefuse() {
        catalog(LOG_COUNT);
        proxy.shard(0).answer("CALL nowhere()", ShardReply.error(1305, "42000", "PROCEDURE app.nowhere does not exist"));

        ClientReply reply = proxy.run(client, "CALL nowhere()");

        assertThat(reply.error().errorCode()).isEqualTo(1305);
        assertThat(proxy.shard(0).queries()).filteredOn(q -> q.startsWith(CATALOG)).hasSize(1);
    }

    @Test
    void aProcedureThatCommitsIsRefusedInsideATransactionOverSeveralShards() {
        catalog(COMMITS);
        for (int shard = 0; shard < 2; shard++) {
            proxy.shard(shard).answerStartingWith("UPDATE t", ShardReply.ok(1, 0));
        }
        proxy.run(client, "BEGIN");
        proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5");
        proxy.run(client, "UPDATE t SET v = 'b' WHERE id = 150");

        ClientReply reply = proxy.run(client, "CALL archive()");

        assertThat(reply.error().errorCode()).isEqualTo(1235);
        assertThat(reply.error().message()).contains("commits or rolls back by itself");
        assertThat(proxy.shard(0).queries()).noneMatch(q -> q.startsWith("CALL"));
    }
}
