package io.cleave.e2e.proxy;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.Leftovers;
import io.cleave.e2e.support.RawMysqlClient;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.TwoShardItems;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static io.cleave.e2e.support.RawMysqlClient.describe;
import static io.cleave.e2e.support.RawMysqlClient.errorCode;
import static io.cleave.e2e.support.RawMysqlClient.isOk;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Every way a client connection can end, each from a state that holds backend connections and
 * open transactions on both shards: COM_QUIT, a close, a TCP reset, a protocol error, in the
 * middle of a statement, of a result, of a COMMIT and of a pipelined burst; and
 * COM_RESET_CONNECTION and COM_CHANGE_USER, after which the connection goes on. Each case first
 * checks that something is held (so the check after it means something), then that the proxy's
 * backend connections in use (/metrics) and the shards' open transactions (innodb_trx) and
 * prepared branches are back to the baseline: none.
 */
class ConnectionLifecycleIT {

    /** On shard 0. */
    private static final int LEFT = 1;
    /** On shard 1. */
    private static final int RIGHT = 150;

    /** About 98 MB from shard 0 (rows of 1 MB), far more than the socket buffers hold: the relay pauses the shard's connection. */
    private static final String BIG_READ;

    static {
        StringBuilder ids = new StringBuilder();
        for (int id = 1; id < 99; id++) {
            ids.append(id == 1 ? "" : ", ").append(id);
        }
        BIG_READ = "SELECT REPEAT(s, 500) FROM items WHERE id IN (" + ids + ")";
    }

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(2)
                .extraYaml(TwoShardItems.SHARDING)
                .create();
        daemon = home.start();
        try (RawMysqlClient c = RawMysqlClient.login(daemon.proxyPort(), "root", "", "")) {
            TwoShardItems.create(c, "life", 2000);
        }
    }

    @AfterAll
    static void stop() {
        if (daemon != null) {
            daemon.close();
        }
        if (home != null) {
            home.close();
        }
    }

    @BeforeEach
    @AfterEach
    void nothingHeldAndNoShardCrashed() throws Exception {
        daemon.assertNoShardRestarted();
        Leftovers.awaitNothingHeld(daemon, Duration.ofSeconds(20));
    }

    @Test
    void quitInsideATransactionAcrossShards() throws Exception {
        RawMysqlClient c = writingOnBothShards();
        c.writePacket(0, new byte[] {0x01});
        assertThat(c.closedByServer()).isTrue();
        assertUnchanged();
    }

    @Test
    void closeInsideATransactionAcrossShards() throws Exception {
        writingOnBothShards().close();
        assertUnchanged();
    }

    @Test
    void resetInsideATransactionAcrossShards() throws Exception {
        writingOnBothShards().abort();
        assertUnchanged();
    }

    @Test
    void aProtocolErrorInsideATransactionAcrossShards() throws Exception {
        RawMysqlClient c = writingOnBothShards();
        // A COM_STMT_EXECUTE cut short: the proxy answers 1835 and closes.
        c.writePacket(0, new byte[] {0x17, 1, 0});
        assertThat(errorCode(c.readPacket())).isEqualTo(1835);
        assertThat(c.closedByServer()).isTrue();
        assertUnchanged();
    }

    @Test
    void aWrongSequenceIdInsideATransactionAcrossShards() throws Exception {
        RawMysqlClient c = writingOnBothShards();
        c.writePacket(1, query("SELECT 1"));
        assertThat(errorCode(c.readPacket())).isEqualTo(1156);
        assertThat(c.closedByServer()).isTrue();
        assertUnchanged();
    }

    @Test
    void midStatementRepeatedlyAsTheFirstReadOfATransactionIsFollowedByAWriteAndAClose() throws Exception {
        for (int i = 0; i < 5; i++) {
            RawMysqlClient c = login();
            ok(c, "BEGIN");
            assertThat(c.queryRows("SELECT v FROM items WHERE id = " + LEFT)).hasSize(1);
            c.writePacket(0, query("UPDATE items SET v = v + 1 WHERE id = " + LEFT));
            c.close();
        }
        Leftovers.awaitNothingHeld(daemon, Duration.ofSeconds(20));
        assertUnchanged();
    }

    @Test
    void midStatementWhileTheStatementWaitsForALock() throws Exception {
        try (RawMysqlClient holder = login()) {
            ok(holder, "BEGIN");
            ok(holder, "UPDATE items SET v = v + 1 WHERE id = " + RIGHT);
            RawMysqlClient waiter = writingOnBothShards(LEFT + 1, RIGHT + 1);
            // Waits for the holder's row lock on shard 1 when the client goes.
            waiter.writePacket(0, query("UPDATE items SET v = v + 1 WHERE id = " + RIGHT));
            awaitLockWait();
            waiter.abort();
            // The proxy let go of the waiting statement's connection at once ...
            awaitInUse(1, 1);
            ok(holder, "ROLLBACK");
        }
        // ... and the shard rolled the waiter back once its statement could end.
        assertUnchanged();
    }

    @Test
    void midResultOfARelayedReadWhileTheProxyWaitsForTheClientToRead() throws Exception {
        RawMysqlClient c = login();
        c.writePacket(0, query(BIG_READ));
        c.readPacket();
        assertThat(Leftovers.inUse(daemon)).containsKey(0);
        c.abort();
        assertUnchanged();
    }

    @Test
    void midResultInsideATransaction() throws Exception {
        RawMysqlClient c = writingOnBothShards();
        c.writePacket(0, query(BIG_READ));
        c.readPacket();
        c.close();
        assertUnchanged();
    }

    @Test
    void midCommitOfATransactionAcrossShardsIsAllOrNothing() throws Exception {
        for (int i = 0; i < 3; i++) {
            RawMysqlClient c = writingOnBothShards();
            c.writePacket(0, query("COMMIT"));
            c.abort();
            Leftovers.awaitNothingHeld(daemon, Duration.ofSeconds(20));
            long left = valueOnShard(0, LEFT);
            assertThat(valueOnShard(1, RIGHT)).as("shard 1 as shard 0 (%d)", left).isEqualTo(left);
            assertThat(left).isBetween(0L, 1L);
            try (RawMysqlClient reset = login()) {
                ok(reset, "UPDATE items SET v = 0 WHERE id IN (" + LEFT + ", " + RIGHT + ")");
            }
        }
    }

    @Test
    void duringAPipelinedBurst() throws Exception {
        RawMysqlClient c = login();
        for (String sql : List.of("BEGIN", "UPDATE items SET v = v + 1 WHERE id = " + LEFT,
                "UPDATE items SET v = v + 1 WHERE id = " + RIGHT, "SELECT COUNT(*) FROM items",
                "CREATE TEMPORARY TABLE t (a INT)", "SELECT v FROM items WHERE id = " + RIGHT + " FOR UPDATE")) {
            c.writePacket(0, query(sql));
        }
        c.readPacket();
        c.abort();
        assertUnchanged();
    }

    @Test
    void resetConnectionInsideATransactionWithPinnedState() throws Exception {
        try (RawMysqlClient c = writingOnBothShards()) {
            ok(c, "CREATE TEMPORARY TABLE scratch (a INT)");
            assertThat(c.queryRows("SELECT GET_LOCK('life', 0)")).containsExactly(List.of("1"));
            assertThat(isOk(c.command(new byte[] {0x1f}))).isTrue();
            // The session holds nothing any more, and goes on.
            Leftovers.awaitNothingHeld(daemon, Duration.ofSeconds(20));
            assertUnchanged();
            assertThat(c.queryRows("SELECT v FROM items WHERE id = " + LEFT)).containsExactly(List.of("0"));
        }
    }

    @Test
    void changeUserInsideATransactionWithPinnedState() throws Exception {
        try (RawMysqlClient c = writingOnBothShards()) {
            ok(c, "CREATE TEMPORARY TABLE scratch (a INT)");
            assertThat(isOk(c.changeUser("root", "", "life"))).isTrue();
            Leftovers.awaitNothingHeld(daemon, Duration.ofSeconds(20));
            assertUnchanged();
            assertThat(c.queryRows("SELECT v FROM items WHERE id = " + RIGHT)).containsExactly(List.of("0"));
        }
    }

    /** A logged-in client with a transaction writing on both shards, checked to hold connections and transactions there. */
    private static RawMysqlClient writingOnBothShards() throws Exception {
        return writingOnBothShards(LEFT, RIGHT);
    }

    private static RawMysqlClient writingOnBothShards(int left, int right) throws Exception {
        RawMysqlClient c = login();
        ok(c, "BEGIN");
        ok(c, "UPDATE items SET v = v + 1 WHERE id = " + left);
        ok(c, "UPDATE items SET v = v + 1 WHERE id = " + right);
        assertThat(Leftovers.inUse(daemon)).containsKeys(0, 1);
        assertThat(Leftovers.openOnShards(daemon)).containsKeys(0, 1);
        return c;
    }

    /** Nothing in use, nothing open, and what the interrupted transactions wrote is gone. */
    private static void assertUnchanged() throws Exception {
        Leftovers.awaitNothingHeld(daemon, Duration.ofSeconds(20));
        assertThat(valueOnShard(0, LEFT)).isZero();
        assertThat(valueOnShard(1, RIGHT)).isZero();
    }

    private static void awaitLockWait() throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        while (true) {
            try (Connection s = daemon.connect(1); Statement st = s.createStatement();
                 ResultSet rs = st.executeQuery("SELECT COUNT(*) FROM information_schema.innodb_trx"
                         + " WHERE trx_state = 'LOCK WAIT'")) {
                rs.next();
                if (rs.getInt(1) > 0) {
                    return;
                }
            }
            assertThat(System.nanoTime()).as("a statement waiting for a lock on shard 1").isLessThan(deadline);
            // innodb_trx is refreshed only after 0.1 s without reads: polling faster would read a stale view.
            Thread.sleep(200);
        }
    }

    /** Waits until the in-use count of {@code shard} is {@code expected} (the holder's connection). */
    private static void awaitInUse(int shard, int expected) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
        double inUse;
        while ((inUse = Leftovers.inUse(daemon).getOrDefault(shard, 0.0)) != expected && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(inUse).as("backend connections in use on shard %d", shard).isEqualTo(expected);
    }

    private static long valueOnShard(int shard, int id) throws Exception {
        try (Connection s = daemon.connect(shard); Statement st = s.createStatement();
             ResultSet rs = st.executeQuery("SELECT v FROM life.items WHERE id = " + id)) {
            assertThat(rs.next()).isTrue();
            return rs.getLong(1);
        }
    }

    private static RawMysqlClient login() throws IOException {
        return RawMysqlClient.login(daemon.proxyPort(), "root", "", "life");
    }

    private static void ok(RawMysqlClient c, String sql) throws IOException {
        byte[] answer = c.query(sql);
        assertThat(isOk(answer)).as("%.80s: %s", sql, describe(answer)).isTrue();
    }

    private static byte[] query(String sql) {
        return RawMysqlClient.concat(new byte[] {0x03}, sql.getBytes(StandardCharsets.UTF_8));
    }
}
