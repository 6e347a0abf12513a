package io.cleave.manager.move;

import io.cleave.e2e.support.StandaloneServer;
import io.cleave.manager.daemon.ShardEndpoint;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The catch-up of a move against an XA branch that its XA COMMIT settles. The server writes that
 * XA COMMIT to its binlog, and its snapshots report a binlog position past it, before the engine
 * commits the branch: a snapshot read there misses a row the branch inserted, which then never
 * reached the target (seen as a cross-shard transfer's entry row lost by a move in ChaosSoakIT).
 * That moment cannot be held open on a release server, so the applier is given the branch's keys
 * as the binlog names them at its XA COMMIT while the source has the branch still prepared (as the
 * engine has it then), and the branch commits a moment later.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class XaCommitCatchUpIT {

    private StandaloneServer source;
    private StandaloneServer target;

    @BeforeAll
    void start() throws Exception {
        source = StandaloneServer.start(List.of());
        target = StandaloneServer.start(List.of());
        for (StandaloneServer s : List.of(source, target)) {
            s.root("CREATE DATABASE bank; CREATE USER app@'%' IDENTIFIED BY 'app'; GRANT ALL ON *.* TO app@'%';"
                    + " CREATE TABLE bank.entries (branch INT NOT NULL, transfer BIGINT NOT NULL, delta BIGINT NOT NULL,"
                    + " PRIMARY KEY (branch, transfer)) ENGINE=InnoDB");
        }
    }

    @AfterAll
    void stop() {
        for (StandaloneServer s : new StandaloneServer[] {source, target}) {
            if (s != null) {
                s.close();
            }
        }
    }

    @Test
    void theBinlogNamesTheKeysOfABranchItsXaCommitSettled() throws Exception {
        String[] from = source.binlogEnd().split(":");
        try (Connection c = source.connect("app", "app", "bank")) {
            TableShape shape = shape(c);
            try (BinlogTail tail = new BinlogTail(new ShardEndpoint(0, "source", null, "127.0.0.1", source.port(), "app",
                    "app"), 4343, new BinlogPosition(from[0], Long.parseLong(from[1])), List.of(shape))) {
                tail.start();
                prepare(c, "xa-tail", 1001, 1);
                execute(c, "XA COMMIT 'xa-tail'");
                execute(c, "INSERT INTO entries VALUES (3, 1, -53)");
                String[] end = source.binlogEnd().split(":");
                tail.awaitReached(new BinlogPosition(end[0], Long.parseLong(end[1])), 10_000);
                BinlogTail.Batch batch = tail.drain();
                assertThat(batch.keys().get(shape)).as("every key changed").containsExactlyInAnyOrder(
                        List.of(1001L, 1L), List.of(3L, 1L));
                assertThat(batch.xaCommitted().get(shape)).as("the keys the XA COMMIT settled")
                        .containsExactly(List.of(1001L, 1L));
            }
        }
    }

    @Test
    void aRowInsertedByABranchStillCommittingInTheEngineReachesTheTarget() throws Exception {
        try (Connection branch = source.connect("app", "app", "bank");
             Connection reader = source.connect("app", "app", "bank");
             Connection onTarget = target.connect("app", "app", "bank")) {
            TableShape shape = shape(reader);
            prepare(branch, "xa-window", 1001, 2);
            // Every event the binlog has now is covered by the source's snapshots: as at the moment the
            // branch's XA COMMIT is in the binlog and the engine has not committed it yet.
            String[] end = source.binlogEnd().split(":");
            CompletableFuture<Void> committed = CompletableFuture.runAsync(() -> {
                try {
                    Thread.sleep(1000);
                    execute(branch, "XA COMMIT 'xa-window'");
                } catch (Exception e) {
                    throw new IllegalStateException(e);
                }
            });
            Map<TableShape, Set<List<Object>>> keys = Map.of(shape, new LinkedHashSet<>(List.of(List.of(1001L, 2L))));
            long changed = new KeyApplier().applyCaughtUp(reader, Map.of(1, onTarget), keys, keys,
                    new BinlogPosition(end[0], Long.parseLong(end[1])));
            committed.get(30, TimeUnit.SECONDS);
            assertThat(changed).as("rows written on the target").isEqualTo(1);
            try (Statement s = onTarget.createStatement();
                 ResultSet rs = s.executeQuery("SELECT delta FROM entries WHERE branch = 1001 AND transfer = 2")) {
                assertThat(rs.next()).as("the branch's row on the target").isTrue();
                assertThat(rs.getLong(1)).isEqualTo(53);
            }
        }
    }

    private static TableShape shape(Connection c) throws SQLException {
        TableProgress table = new TableProgress("bank", "entries", "branch", List.of("branch", "transfer"));
        TableShape shape = TableShape.read(c, table);
        shape.placement = new Placement.Whole(new int[] {1});
        shape.moving = shape.placement.onSource();
        return shape;
    }

    /** An XA branch on {@code c} that inserts one entry row, left prepared. */
    private static void prepare(Connection c, String xid, int branch, int transfer) throws SQLException {
        execute(c, "XA START '" + xid + "'");
        execute(c, "INSERT INTO entries VALUES (" + branch + ", " + transfer + ", 53)");
        execute(c, "XA END '" + xid + "'");
        execute(c, "XA PREPARE '" + xid + "'");
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
