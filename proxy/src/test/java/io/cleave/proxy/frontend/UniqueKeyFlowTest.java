package io.cleave.proxy.frontend;

import io.cleave.proxy.backend.ShardReply;
import io.cleave.proxy.protocol.ColumnType;
import io.cleave.router.keyspace.KeyType;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.unique.LookupPlacement;
import io.cleave.router.unique.UniqueIndex;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.cleave.proxy.backend.ShardReply.column;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * An INSERT into a table with a global unique key ({@code db.t.v}; t is sharded by id, 1-100 on
 * shard 0, 101 and up on shard 1), over fake shards: the value's lookup row is claimed before the
 * row is written; a value another key holds is checked on that key's shard, and fails the
 * statement with the server's 1062 when a row has it, or is taken over when none does.
 */
class UniqueKeyFlowTest {

    private static final UniqueIndex BY_V = new UniqueIndex("db", "t", "v", List.of("v"), List.of(KeyType.STRING), "id",
            UniqueIndex.lookupName("db", "t", "v"), 2);
    private static final String LOOKUP = "INSERT IGNORE INTO cleave.`u_db_t_v`";
    private static final String CHECK = "SET STATEMENT sql_mode = '' FOR INSERT INTO `db`.`t` (`v`) SELECT NULL FROM DUAL WHERE 0";

    private final FakeProxy proxy = new FakeProxy();
    private final EmbeddedClient client = proxy.connect();

    @BeforeEach
    void declare() {
        // MariaDB shards: lookup statements go through Cleave's procedure, after a check of the write.
        proxy.runtime.serverVersion("11.4.5-MariaDB-fake");
        proxy.runtime.uniqueIndexes().add(BY_V);
        // The table's columns, asked of the default shard on its first insert: none AUTO_INCREMENT.
        proxy.shard(0).answerStartingWith("SELECT COLUMN_NAME, EXTRA, COLUMN_DEFAULT FROM information_schema.COLUMNS",
                ShardReply.rows(List.of(column("COLUMN_NAME", ColumnType.VAR_STRING), column("EXTRA", ColumnType.VAR_STRING),
                        column("COLUMN_DEFAULT", ColumnType.VAR_STRING)), new String[] {"id", "", null},
                        new String[] {"v", "", null}));
    }

    private static int lookupShard(String value) {
        return LookupPlacement.shardOf(BY_V, List.of(ShardKey.ofString(value)));
    }

    @Test
    void theLookupRowIsClaimedBeforeTheRowIsWritten() {
        proxy.shard(lookupShard("a")).answerStartingWith(LOOKUP, ShardReply.ok(1, 0));
        proxy.shard(0).answerStartingWith("INSERT INTO db.t", ShardReply.ok(1, 0));

        ClientReply reply = proxy.run(client, "INSERT INTO db.t (id, v) VALUES (5, 'a')");

        assertThat(reply.isOk()).as(reply.toString()).isTrue();
        assertThat(reply.ok().affectedRows()).isEqualTo(1);
        List<String> lookupShard = proxy.shard(lookupShard("a")).queries();
        assertThat(lookupShard).contains("INSERT IGNORE INTO cleave.`u_db_t_v` (`v`, cleave_key) VALUES (_utf8mb4 X'61', 5)");
        if (lookupShard("a") == 0) {
            assertThat(lookupShard.indexOf("INSERT INTO db.t (id, v) VALUES (5, 'a') "))
                    .isGreaterThan(lookupShard.indexOf("INSERT IGNORE INTO cleave.`u_db_t_v` (`v`, cleave_key) VALUES (_utf8mb4 X'61', 5)"));
        }
        assertThat(proxy.shard(0).queries()).map(String::strip).contains("INSERT INTO db.t (id, v) VALUES (5, 'a')");
    }

    @Test
    void theWriteIsCheckedOnTheTableBeforeTheClaimOnTheSameConnection() {
        proxy.shard(lookupShard("a")).answerStartingWith(LOOKUP, ShardReply.ok(1, 0));
        proxy.shard(0).answerStartingWith("INSERT INTO db.t", ShardReply.ok(1, 0));

        ClientReply reply = proxy.run(client, "INSERT INTO db.t (id, v) VALUES (5, 'a')");

        assertThat(reply.isOk()).as(reply.toString()).isTrue();
        List<String> lookupShard = proxy.shard(lookupShard("a")).queries();
        int check = lookupShard.indexOf(CHECK);
        assertThat(check).as(lookupShard.toString()).isGreaterThanOrEqualTo(0);
        assertThat(lookupShard.indexOf("INSERT IGNORE INTO cleave.`u_db_t_v` (`v`, cleave_key) VALUES (_utf8mb4 X'61', 5)"))
                .isGreaterThan(check);
        assertThat(proxy.shard(lookupShard("a")).sealedCalls()).isEqualTo(1);
    }

    @Test
    void anAccountThatMayNotWriteTheTableGetsTheShardsErrorForItAndNothingIsWritten() {
        proxy.shard(lookupShard("a")).answerStartingWith(CHECK, ShardReply.error(1142, "42000",
                "INSERT command denied to user 'ro'@'localhost' for table `db`.`t`"));
        proxy.shard(lookupShard("a")).answerStartingWith(LOOKUP, ShardReply.ok(1, 0));

        ClientReply reply = proxy.run(client, "INSERT INTO db.t (id, v) VALUES (5, 'a')");

        assertThat(reply.error()).as(reply.toString()).isNotNull();
        assertThat(reply.error().errorCode()).isEqualTo(1142);
        assertThat(reply.error().message()).contains("for table `db`.`t`");
        assertThat(proxy.shard(0).queries()).noneMatch(q -> q.startsWith("INSERT INTO db.t"));
        assertThat(proxy.shard(1).queries()).noneMatch(q -> q.startsWith("INSERT INTO db.t"));
        // The claim sent after the check is undone with the statement's transaction.
        assertThat(proxy.shard(lookupShard("a")).queries()).anyMatch(q -> q.startsWith("ROLLBACK") || q.startsWith("XA ROLLBACK")
                || q.startsWith("ROLLBACK TO SAVEPOINT"));
    }

    @Test
    void anAccountWithPrivilegesOnEveryTableClaimsUncheckedAsItself() {
        EmbeddedClient admin = proxy.connect(FakeProxy.CLIENT, FakeProxy.ADMIN.user());
        proxy.shard(lookupShard("a")).answerStartingWith(LOOKUP, ShardReply.ok(1, 0));
        proxy.shard(0).answerStartingWith("INSERT INTO db.t", ShardReply.ok(1, 0));

        ClientReply reply = proxy.run(admin, "INSERT INTO db.t (id, v) VALUES (5, 'a')");

        assertThat(reply.isOk()).as(reply.toString()).isTrue();
        List<String> raw = proxy.shard(lookupShard("a")).received();
        assertThat(raw).contains("INSERT IGNORE INTO cleave.`u_db_t_v` (`v`, cleave_key) VALUES (_utf8mb4 X'61', 5)");
        assertThat(raw).noneMatch(q -> q.startsWith("SET STATEMENT sql_mode = ''"));
        assertThat(proxy.shard(lookupShard("a")).sealedCalls()).isZero();
    }

    @Test
    void aValueARowHoldsOnAnotherShardFailsTheStatementWithTheServersError() {
        contested("a", "150");
        proxy.shard(1).answerStartingWith("SELECT CASE WHEN (`v` = _utf8mb4 X'61') THEN 0 END FROM `db`.`t`", ShardReply.rows(
                List.of(column("i", ColumnType.LONGLONG)), new String[] {"0"}));

        ClientReply reply = proxy.run(client, "INSERT INTO db.t (id, v) VALUES (5, 'a')");

        assertThat(reply.error()).as(reply.toString()).isNotNull();
        assertThat(reply.error().errorCode()).isEqualTo(1062);
        assertThat(reply.error().message()).isEqualTo("Duplicate entry 'a' for key 'v'");
        assertThat(proxy.shard(0).queries()).noneMatch(q -> q.startsWith("INSERT INTO db.t"));
        assertThat(proxy.shard(1).queries()).contains("SELECT CASE WHEN (`v` = _utf8mb4 X'61') THEN 0 END FROM `db`.`t` WHERE"
                + " (`v` = _utf8mb4 X'61') FOR UPDATE");
    }

    @Test
    void aLookupRowNoRowHoldsAnyMoreIsTakenOver() {
        contested("a", "150");
        proxy.shard(1).answerStartingWith("SELECT CASE WHEN (`v` = _utf8mb4 X'61') THEN 0 END FROM `db`.`t`", ShardReply.rows(
                List.of(column("i", ColumnType.LONGLONG))));
        proxy.shard(lookupShard("a")).answerStartingWith("UPDATE cleave.`u_db_t_v` SET cleave_key = 5", ShardReply.ok(1, 0));
        proxy.shard(0).answerStartingWith("INSERT INTO db.t", ShardReply.ok(1, 0));

        ClientReply reply = proxy.run(client, "INSERT INTO db.t (id, v) VALUES (5, 'a')");

        assertThat(reply.isOk()).as(reply.toString()).isTrue();
        assertThat(proxy.shard(lookupShard("a")).queries()).contains(
                "UPDATE cleave.`u_db_t_v` SET cleave_key = 5 WHERE (`v` = _utf8mb4 X'61')");
        assertThat(proxy.shard(0).queries()).map(String::strip).contains("INSERT INTO db.t (id, v) VALUES (5, 'a')");
    }

    @Test
    void insertIgnoreSkipsTheRowWhoseValueARowHolds() {
        contested("a", "150");
        proxy.shard(lookupShard("b")).answerStartingWith("INSERT IGNORE INTO cleave.`u_db_t_v` (`v`, cleave_key) VALUES (_utf8mb4 X'62'",
                ShardReply.ok(1, 0));
        proxy.shard(1).answerStartingWith("SELECT CASE WHEN (`v` = _utf8mb4 X'61') THEN 0 END FROM `db`.`t`", ShardReply.rows(
                List.of(column("i", ColumnType.LONGLONG)), new String[] {"0"}));
        proxy.shard(0).answerStartingWith("INSERT IGNORE INTO db.t", ShardReply.ok(1, 0));

        ClientReply reply = proxy.run(client, "INSERT IGNORE INTO db.t (id, v) VALUES (5, 'a'), (6, 'b')");

        assertThat(reply.isOk()).as(reply.toString()).isTrue();
        assertThat(reply.ok().affectedRows()).isEqualTo(1);
        assertThat(proxy.shard(0).queries()).map(String::strip).contains("INSERT IGNORE INTO db.t (id, v) VALUES (6, 'b')");
    }

    @Test
    void writesToShardedTablesWaitForKeysNotReadYet() {
        proxy.runtime.uniqueIndexes().unknown();

        ClientReply reply = proxy.run(client, "INSERT INTO db.t (id, v) VALUES (5, 'a')");

        assertThat(reply.error()).as(reply.toString()).isNotNull();
        assertThat(reply.error().message()).contains("wait for the global unique keys");
        assertThat(proxy.shard(0).queries()).noneMatch(q -> q.startsWith("INSERT"));
        assertThat(proxy.shard(1).queries()).noneMatch(q -> q.startsWith("INSERT"));
    }

    /** A string value as the proxy writes it in lookup statements: hex with its character set. */
    private static String portable(String value) {
        return "_utf8mb4 X'" + java.util.HexFormat.of().withUpperCase().formatHex(value.getBytes(
                java.nio.charset.StandardCharsets.UTF_8)) + "'";
    }

    /** The value's claim finds a lookup row already there, naming the row of key {@code holder}. */
    private void contested(String value, String holder) {
        int shard = lookupShard(value);
        proxy.shard(shard).answerStartingWith(LOOKUP + " (`v`, cleave_key) VALUES (" + portable(value), ShardReply.ok(0, 0));
        proxy.shard(shard).answerStartingWith("SELECT cleave_key, CASE WHEN (`v` = " + portable(value) + ") THEN 0", ShardReply.rows(
                List.of(column("cleave_key", ColumnType.LONG), column("i", ColumnType.LONGLONG)),
                new String[] {holder, "0"}));
    }
}
