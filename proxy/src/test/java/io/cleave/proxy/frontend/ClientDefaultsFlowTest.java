package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * What drivers and tools do by default, as the shards see it: autocommit off (PyMySQL,
 * mysqlclient), statements that commit implicitly, savepoints taken before a shard joins
 * (mariadb-dump --single-transaction), INSERT without a column list, explicit ids next to drawn
 * ones, AUTO_INCREMENT on tables that live on one shard.
 */
class ClientDefaultsFlowTest {

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    /** Table t's columns, asked of the default shard on its first insert; {@code id} is AUTO_INCREMENT when {@code auto}. */
    private void columnsOfT(boolean auto) {
        proxy.shard(0).answerStartingWith("SELECT COLUMN_NAME, EXTRA, COLUMN_DEFAULT FROM information_schema.COLUMNS", ShardReply.rows(
                List.of(column("COLUMN_NAME", ColumnType.VAR_STRING), column("EXTRA", ColumnType.VAR_STRING),
                        column("COLUMN_DEFAULT", ColumnType.VAR_STRING)),
                new String[] {"id", auto ? "auto_increment" : "", null}, new String[] {"v", "", null}));
    }

    private void bothShardsAnswer(String sql) {
        proxy.shard(0).answer(sql, ShardReply.ok(1, 0));
        proxy.shard(1).answer(sql, ShardReply.ok(1, 0));
    }

    @Test
    void turningAutocommitOnCommitsWhatAReadAcrossShardsOpened() {
        bothShardsAnswer("UPDATE t SET v = 'x'");
        assertThat(proxy.run(client, "SET autocommit = 0").isOk()).isTrue();
        assertThat(proxy.run(client, "UPDATE t SET v = 'x'").inTransaction()).isTrue();

        ClientReply on = proxy.run(client, "SET autocommit = 1");

        assertThat(on.isOk()).as(on.toString()).isTrue();
        assertThat(on.inTransaction()).isFalse();
        assertThat(proxy.shard(1).queries()).last().asString().startsWith("XA COMMIT");
        assertThat(proxy.shard(0).queries()).contains("COMMIT");
    }

    @Test
    void aStructureChangeCommitsTheOpenTransactionFirstAndRunsOutsideIt() {
        bothShardsAnswer("UPDATE t SET v = 'x'");
        bothShardsAnswer("CREATE TABLE u (a INT)");
        proxy.shard(0).answerStartingWith("DELETE FROM cleave.sequences", ShardReply.ok());
        proxy.run(client, "SET autocommit = 0");
        proxy.run(client, "UPDATE t SET v = 'x'");

        ClientReply ddl = proxy.run(client, "CREATE TABLE u (a INT)");

        assertThat(ddl.isOk()).as(ddl.toString()).isTrue();
        List<String> shard1 = proxy.shard(1).queries();
        assertThat(shard1).last().isEqualTo("CREATE TABLE u (a INT)");
        assertThat(shard1.get(shard1.size() - 2)).as("the transaction was committed first").startsWith("XA COMMIT");
        assertThat(shard1.stream().filter(q -> q.startsWith("XA START"))).as("the DDL joined no transaction").hasSize(1);
    }

    @Test
    void aSavepointTakenBeforeAShardJoinedIsSetThereWhenItJoins() {
        proxy.shard(0).answer("UPDATE t SET v = 'a' WHERE id = 5", ShardReply.ok(1, 0));
        proxy.shard(1).answer("UPDATE t SET v = 'b' WHERE id = 150", ShardReply.ok(1, 0));
        proxy.run(client, "BEGIN");
        proxy.run(client, "UPDATE t SET v = 'a' WHERE id = 5");
        proxy.run(client, "SAVEPOINT sp");
        proxy.run(client, "UPDATE t SET v = 'b' WHERE id = 150");

        ClientReply back = proxy.run(client, "ROLLBACK TO SAVEPOINT sp");

        assertThat(back.isOk()).as(back.toString()).isTrue();
        List<String> shard1 = proxy.shard(1).queries();
        assertThat(shard1.get(0)).startsWith("XA START");
        assertThat(shard1.subList(1, 4)).containsExactly("SAVEPOINT `sp`", "UPDATE t SET v = 'b' WHERE id = 150",
                "ROLLBACK TO SAVEPOINT sp");
        assertThat(proxy.shard(0).queries()).containsSubsequence("SAVEPOINT sp", "ROLLBACK TO SAVEPOINT sp");
        assertThat(proxy.run(client, "RELEASE SAVEPOINT sp").isOk()).isTrue();
        assertThat(proxy.run(client, "ROLLBACK TO SAVEPOINT sp").error().errorCode()).as("released").isEqualTo(1305);
    }

    @Test
    void anInsertWithoutAColumnListFindsItsKeyByTheTablesColumnOrder() {
        columnsOfT(false);
        proxy.shard(0).answerStartingWith("INSERT INTO t VALUES", ShardReply.ok(2, 0));
        proxy.shard(1).answerStartingWith("INSERT INTO t VALUES", ShardReply.ok(1, 0));

        client.query("INSERT INTO t VALUES (5, 'a'), (150, 'b'), (6, 'c')");
        proxy.pump();
        ClientReply reply = client.reply();

        assertThat(reply.isOk()).as(reply.toString()).isTrue();
        assertThat(reply.ok().affectedRows()).isEqualTo(3);
        assertThat(proxy.shard(0).queries()).anySatisfy(q -> assertThat(q).startsWith("INSERT INTO t VALUES")
                .contains("(5, 'a')", "(6, 'c')").doesNotContain("150"));
        assertThat(proxy.shard(1).queries()).anySatisfy(q -> assertThat(q).startsWith("INSERT INTO t VALUES")
                .contains("(150, 'b')").doesNotContain("(5"));
        ClientReply wrongCount = proxy.run(client, "INSERT INTO t VALUES (7)");
        assertThat(wrongCount.error().errorCode()).isEqualTo(1136);
    }

    @Test
    void anExplicitIdMovesTheSequencePastIt() {
        columnsOfT(true);
        proxy.shard(0).answerStartingWith("INSERT INTO t (id, v) VALUES (50, 'a')", ShardReply.ok(1, 0));
        proxy.run(client, "BEGIN");
        ClientReply explicit = proxy.run(client, "INSERT INTO t (id, v) VALUES (50, 'a')");
        assertThat(explicit.isOk()).as(explicit + " " + proxy.shard(0).queries()).isTrue();
        proxy.shard(0).answerStartingWith("SELECT EXTRA FROM information_schema.COLUMNS", ShardReply.rows(
                List.of(column("EXTRA", ColumnType.VAR_STRING)), new String[] {"auto_increment"}));
        for (int s = 0; s < 2; s++) {
            proxy.shard(s).answerStartingWith("SELECT MAX(`id`) FROM", ShardReply.rows(
                    List.of(column("MAX(`id`)", ColumnType.LONGLONG)), new String[] {s == 0 ? "10" : null}));
        }
        proxy.shard(0).answerStartingWith("INSERT INTO cleave.sequences", ShardReply.ok(1, 0));
        proxy.shard(0).answerStartingWith("UPDATE cleave.sequences", ShardReply.ok(1, 51 + 64));
        proxy.shard(0).answerStartingWith("INSERT INTO t (v, `id`) VALUES ('b', 51)", ShardReply.ok(1, 0));

        ClientReply drawn = proxy.run(client, "INSERT INTO t (v) VALUES ('b')");

        assertThat(drawn.isOk()).as(drawn.toString()).isTrue();
        assertThat(drawn.ok().lastInsertId()).as("after the transaction's own row 50, not after the committed 10")
                .isEqualTo(51);
        assertThat(proxy.shard(0).queries()).anySatisfy(q -> assertThat(q).startsWith("UPDATE cleave.sequences")
                .contains("GREATEST(next_value, 51)"));
    }

    @Test
    void aTableOnOneShardCountsAutoIncrementByOne() {
        proxy.shard(1).answer("INSERT INTO settings (v) VALUES (1)", ShardReply.ok(1, 1));
        proxy.shard(1).answer("UPDATE t SET v = 'c' WHERE id = 150", ShardReply.ok(1, 0));

        proxy.run(client, "INSERT INTO settings (v) VALUES (1)");
        proxy.run(client, "UPDATE t SET v = 'c' WHERE id = 150");

        assertThat(proxy.shard(1).queries()).containsExactly(
                "SET @@session.auto_increment_increment=1, @@session.auto_increment_offset=1",
                "INSERT INTO settings (v) VALUES (1)",
                "SET @@session.auto_increment_increment=DEFAULT, @@session.auto_increment_offset=DEFAULT",
                "UPDATE t SET v = 'c' WHERE id = 150");
    }

    @Test
    void aHomeOfOneShardCountsByOneWithoutSettingTheStep() {
        // Its shard steps by one already: a SET around every INSERT of a transaction would be
        // two more statements on the shard for each, as TPC-C's new-order showed.
        FakeProxy one = FakeProxy.oneShard();
        EmbeddedClient c = one.connect();
        one.shard(0).answer("INSERT INTO t (id, v) VALUES (7, 'a')", ShardReply.ok(1, 0));
        one.shard(0).answer("UPDATE t SET v = 'c' WHERE id = 7", ShardReply.ok(1, 0));
        one.shard(0).answer("INSERT INTO t (id, v) VALUES (8, 'b')", ShardReply.ok(1, 0));

        assertThat(one.run(c, "INSERT INTO t (id, v) VALUES (7, 'a')").isOk()).isTrue();
        assertThat(one.run(c, "UPDATE t SET v = 'c' WHERE id = 7").isOk()).isTrue();
        assertThat(one.run(c, "INSERT INTO t (id, v) VALUES (8, 'b')").isOk()).isTrue();

        assertThat(one.shard(0).queries()).containsExactly("INSERT INTO t (id, v) VALUES (7, 'a')",
                "UPDATE t SET v = 'c' WHERE id = 7", "INSERT INTO t (id, v) VALUES (8, 'b')");
    }

    @Test
    void userFunctionsNameTheClientNotTheShardAccount() {
        assertThat(proxy.run(client, "SELECT USER()").rows()).containsExactly(List.of("app@localhost"));
        assertThat(proxy.run(client, "SELECT CURRENT_USER() AS who").rows()).containsExactly(List.of("app@%"));
        assertThat(proxy.run(client, "SELECT SESSION_USER()").rows()).containsExactly(List.of("app@localhost"));
        assertThat(proxy.shard(0).received()).isEmpty();
        assertThat(proxy.shard(1).received()).isEmpty();
    }

    @Test
    void sslStatusIsTheClientsOwnSession() {
        ClientReply plain = proxy.run(client, "SHOW STATUS LIKE 'Ssl_c%'");
        assertThat(plain.rows()).as("a client without TLS has no cipher").containsExactly(List.of("Ssl_cipher", ""));
        assertThat(proxy.shard(0).received()).isEmpty();
        assertThat(TlsStatus.openSslName("TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384")).isEqualTo("ECDHE-RSA-AES256-GCM-SHA384");
        assertThat(TlsStatus.openSslName("TLS_AES_128_GCM_SHA256")).isEqualTo("TLS_AES_128_GCM_SHA256");
    }

    @Test
    void theProcessListShowsTheProxysClients() {
        EmbeddedClient other = proxy.connect();

        List<List<String>> rows = proxy.run(client, "SHOW PROCESSLIST").rows();

        assertThat(rows).hasSize(2);
        assertThat(rows).allSatisfy(r -> assertThat(r.subList(1, 4)).containsExactly("app", "localhost", "app"));
        assertThat(rows).anySatisfy(r -> assertThat(r.get(7)).isEqualTo("SHOW PROCESSLIST"));
        assertThat(rows).anySatisfy(r -> assertThat(r.get(4)).isEqualTo("Sleep"));
        assertThat(proxy.shard(0).queries()).doesNotContain("SHOW PROCESSLIST");
        other.disconnect();
        assertThat(proxy.run(client, "SHOW FULL PROCESSLIST").rows()).as("a client that left is gone").hasSize(1);
    }
}
