package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.proxy.server.LoopResources;
import io.cleave.router.sql.lex.SqlMode;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Statements over several shards: reads merged as one server would answer, a multi-row INSERT
 * split by key, a keyless write sent everywhere (each atomic across the shards), and a statement
 * that cannot be answered exactly refused before any shard sees it.
 */
class MultiShardFlowTest {

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    @Test
    void aCountOverEveryShardIsTheSumOfTheirCounts() {
        proxy.shard(0).answerStartingWith("SELECT COUNT(*)", ShardReply.rows(
                List.of(column("COUNT(*)", ColumnType.LONGLONG)), new String[] {"3"}));
        proxy.shard(1).answerStartingWith("SELECT COUNT(*)", ShardReply.rows(
                List.of(column("COUNT(*)", ColumnType.LONGLONG)), new String[] {"4"}));

        ClientReply reply = proxy.run(client, "SELECT COUNT(*) FROM t");

        assertThat(reply.rows()).containsExactly(List.of("7"));
        // Aggregates are merged from every row: no sql_select_limit may cut a shard's answer short. The
        // shards are read at one cut: each in a snapshot opened for the statement and ended after it.
        assertThat(proxy.shard(0).queries()).containsExactlyElementsOf(atCut("SELECT COUNT(*) FROM t LIMIT 18446744073709551615"));
        assertThat(proxy.shard(1).queries()).containsExactlyElementsOf(atCut("SELECT COUNT(*) FROM t LIMIT 18446744073709551615"));
    }

    @Test
    void orderedRowsOfSeveralShardsAreMergedAndLimited() {
        // The shards get the rewrite for merging: the sort key's weight string as a hidden last
        // column (used for strings; numbers compare as numbers), and LIMIT offset + count.
        String rewrite = "SELECT id, v ,WEIGHT_STRING(IF(id = RTRIM(id), RTRIM(id), id)) FROM t WHERE v <> 'z'"
                + " ORDER BY id DESC LIMIT 3";
        List<ShardReply.Column> columns = List.of(column("id", ColumnType.LONG), column("v", ColumnType.VAR_STRING),
                column("w", ColumnType.VAR_STRING));
        proxy.shard(0).answer(rewrite, ShardReply.rows(columns,
                new String[] {"7", "g", null}, new String[] {"4", "d", null}, new String[] {"1", "a", null}));
        proxy.shard(1).answer(rewrite, ShardReply.rows(columns,
                new String[] {"102", "y", null}, new String[] {"101", "x", null}));

        ClientReply reply = proxy.run(client, "SELECT id, v FROM t WHERE v <> 'z' ORDER BY id DESC LIMIT 1, 2");

        assertThat(reply.results().get(0).columns()).containsExactly("id", "v");
        assertThat(reply.rows()).containsExactly(List.of("101", "x"), List.of("7", "g"));
    }

    @Test
    void theLimitOfAMergeIsTheStatementsOwnWhileOtherSessionsRunOnItsLoop() {
        String rewrite = "SELECT id, v ,WEIGHT_STRING(IF(id = RTRIM(id), RTRIM(id), id)) FROM t ORDER BY id DESC LIMIT 3";
        List<ShardReply.Column> columns = List.of(column("id", ColumnType.LONG), column("v", ColumnType.VAR_STRING),
                column("w", ColumnType.VAR_STRING));
        proxy.shard(0).answer(rewrite, ShardReply.rows(columns, new String[] {"7", "g", null},
                new String[] {"4", "d", null}, new String[] {"1", "a", null}));
        proxy.shard(1).answer(rewrite, ShardReply.rows(columns, new String[] {"102", "y", null},
                new String[] {"101", "x", null}));

        client.query("SELECT id, v FROM t ORDER BY id DESC LIMIT 1, 2");
        anotherSessionOnTheLoop("SELECT v FROM t LIMIT 0, 1");
        proxy.pump();

        assertThat(client.reply().rows()).containsExactly(List.of("101", "x"), List.of("7", "g"));
    }

    /**
     * While the shards work, another session on the client's event loop has {@code sql} analyzed
     * into the loop's reused buffers, as every COM_QUERY is.
     */
    private void anotherSessionOnTheLoop(String sql) {
        LoopResources loop = proxy.runtime.loop(client.channel().eventLoop());
        byte[] other = sql.getBytes(StandardCharsets.UTF_8);
        byte[] buffer = loop.sqlBuffer(other.length);
        System.arraycopy(other, 0, buffer, 0, other.length);
        proxy.runtime.router().analyze(buffer, 0, other.length, SqlMode.DEFAULT, loop.analysis());
    }

    @Test
    void aMergedHavingComparesWithTheStatementsOwnValues() {
        // HAVING is evaluated after merging the groups: the shards get the query without it.
        String rewrite = "SELECT k, COUNT(*) ,WEIGHT_STRING(IF(k = RTRIM(k), RTRIM(k), k)) FROM t GROUP BY k ORDER BY k"
                + " LIMIT 18446744073709551615";
        List<ShardReply.Column> columns = List.of(column("k", ColumnType.LONG), column("COUNT(*)", ColumnType.LONGLONG),
                column("w", ColumnType.VAR_STRING));
        proxy.shard(0).answer(rewrite, ShardReply.rows(columns, new String[] {"1", "2", null}, new String[] {"2", "1", null}));
        proxy.shard(1).answer(rewrite, ShardReply.rows(columns, new String[] {"1", "1", null}, new String[] {"2", "1", null}));

        client.query("SELECT k, COUNT(*) FROM t GROUP BY k HAVING COUNT(*) > 2 ORDER BY k");
        anotherSessionOnTheLoop("SELECT k, COUNT(*) FROM t GROUP BY k HAVING COUNT(*) > 0 ORDER BY k");
        proxy.pump();

        assertThat(proxy.shard(0).queries()).containsExactlyElementsOf(atCut(rewrite));
        assertThat(client.reply().rows()).as("only k = 1 has more than 2 rows over both shards")
                .containsExactly(List.of("1", "3"));
    }

    /**
     * What a shard is sent for a read of several shards outside a transaction, in a session at the
     * default level: {@code read} in a snapshot of the cut.
     */
    static List<String> atCut(String read) {
        return List.of("START TRANSACTION WITH CONSISTENT SNAPSHOT", read, "COMMIT");
    }

    /** The table's columns, asked of the default shard on its first insert: here, none AUTO_INCREMENT. */
    private void noAutoIncrementColumn() {
        proxy.shard(0).answerStartingWith("SELECT COLUMN_NAME, EXTRA, COLUMN_DEFAULT FROM information_schema.COLUMNS", ShardReply.rows(
                List.of(column("COLUMN_NAME", ColumnType.VAR_STRING), column("EXTRA", ColumnType.VAR_STRING),
                        column("COLUMN_DEFAULT", ColumnType.VAR_STRING)),
                new String[] {"id", "", null}, new String[] {"v", "", null}));
    }

    @Test
    void aMultiRowInsertIsSplitByKeyAndCommittedOnBothShardsOrNeither() {
        noAutoIncrementColumn();
        proxy.shard(0).answerStartingWith("INSERT INTO t", ShardReply.ok(2, 0));
        proxy.shard(1).answerStartingWith("INSERT INTO t", ShardReply.ok(1, 0));

        ClientReply reply = proxy.run(client, "INSERT INTO t (id, v) VALUES (5, 'a'), (150, 'b'), (6, 'c')");

        assertThat(reply.isOk()).as(reply.toString()).isTrue();
        assertThat(reply.ok().affectedRows()).isEqualTo(3);
        assertThat(reply.inTransaction()).isFalse();
        // The first shard to join is the coordinator: a plain transaction that records the decision.
        int coordinator = proxy.shard(0).queries().contains("START TRANSACTION") ? 0 : 1;
        List<String> first = from(proxy.shard(coordinator).queries(), "START TRANSACTION");
        List<String> second = from(proxy.shard(1 - coordinator).queries(), "XA START");
        String ownRows = coordinator == 0 ? "(5, 'a')" : "(150, 'b')";
        String otherRows = coordinator == 0 ? "(150, 'b')" : "(5, 'a')";
        assertThat(first.get(1)).startsWith("INSERT INTO t").contains(ownRows).doesNotContain(otherRows);
        assertThat(proxy.shard(0).queries()).filteredOn(q -> q.startsWith("INSERT INTO t")).singleElement()
                .asString().contains("(5, 'a')").contains("(6, 'c')").doesNotContain("150");
        // Both shards wrote: the other is an XA branch, prepared before the coordinator records the decision.
        assertThat(second.get(0)).startsWith("XA START 'cleave:" + coordinator + ":");
        assertThat(second.get(1)).startsWith("INSERT INTO t").contains(otherRows).doesNotContain(ownRows);
        assertThat(second.subList(2, 5)).satisfiesExactly(
                s -> assertThat(s).startsWith("XA END"), s -> assertThat(s).startsWith("XA PREPARE"),
                s -> assertThat(s).startsWith("XA COMMIT"));
        assertThat(first.subList(2, 4)).satisfiesExactly(
                s -> assertThat(s).startsWith("CALL cleave.decide("), s -> assertThat(s).isEqualTo("COMMIT"));
        assertThat(first).last().asString().startsWith("DELETE FROM cleave.decisions");
    }

    /** The statements from the first one starting with {@code prefix} on. */
    private static List<String> from(List<String> queries, String prefix) {
        for (int i = 0; i < queries.size(); i++) {
            if (queries.get(i).startsWith(prefix)) {
                return queries.subList(i, queries.size());
            }
        }
        throw new AssertionError("no statement starts with " + prefix + ": " + queries);
    }

    @Test
    void aRowFailingOnOneShardLeavesNoRowOnTheOther() {
        noAutoIncrementColumn();
        proxy.shard(0).answerStartingWith("INSERT INTO t", ShardReply.ok(1, 0));
        proxy.shard(1).answerStartingWith("INSERT INTO t", ShardReply.error(1062, "23000",
                "Duplicate entry '150' for key 'PRIMARY'"));

        ClientReply reply = proxy.run(client, "INSERT INTO t (id, v) VALUES (5, 'a'), (150, 'b')");

        assertThat(reply.error().errorCode()).isEqualTo(1062);
        // Rolled back on both: the coordinator's plain transaction and the other's XA branch.
        int coordinator = proxy.shard(0).queries().contains("START TRANSACTION") ? 0 : 1;
        assertThat(proxy.shard(coordinator).queries()).last().isEqualTo("ROLLBACK");
        assertThat(proxy.shard(1 - coordinator).queries()).last().asString().startsWith("XA ROLLBACK");
    }

    @Test
    void aKeylessUpdateGoesToEveryShardAndAddsUpTheirCounts() {
        proxy.shard(0).answer("UPDATE t SET v = 'x'", ShardReply.ok(2, 0));
        proxy.shard(1).answer("UPDATE t SET v = 'x'", ShardReply.ok(5, 0));

        ClientReply reply = proxy.run(client, "UPDATE t SET v = 'x'");

        assertThat(reply.ok().affectedRows()).isEqualTo(7);
        assertThat(proxy.shard(0).queries()).contains("UPDATE t SET v = 'x'");
        assertThat(proxy.shard(1).queries()).contains("UPDATE t SET v = 'x'");
    }

    @Test
    void aRowWhoseKeyNoShardHoldsRefusesTheInsertNamingItsKeyspace() {
        ClientReply reply = proxy.run(client, "INSERT INTO t (id, v) VALUES (5, 'a'), (0, 'b')");

        assertThat(reply.error().errorCode()).isEqualTo(1235);
        assertThat(reply.error().message()).isEqualTo("row 2 of the INSERT into t has a sharding key that no shard holds"
                + " (NULL, not a whole number, or outside every configured range of keyspace customer)");
        assertThat(proxy.shard(0).received()).isEmpty();
        assertThat(proxy.shard(1).received()).isEmpty();
    }

    @Test
    void whatCannotBeMergedExactlyIsRefusedBeforeAnyShardSeesIt() {
        // A locking read cannot be evaluated on one shard either (it would lock copies).
        ClientReply reply = proxy.run(client, "SELECT GROUP_CONCAT(v) FROM t FOR UPDATE");

        assertThat(reply.error().errorCode()).isEqualTo(1235);
        assertThat(reply.error().sqlState()).isEqualTo("42000");
        assertThat(reply.error().message()).contains("GROUP_CONCAT");
        assertThat(proxy.shard(0).received()).isEmpty();
        assertThat(proxy.shard(1).received()).isEmpty();
        assertThat(client.isOpen()).isTrue();
    }
}
