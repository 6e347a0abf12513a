package io.cleave.e2e.online;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.e2e.support.SbLoad;
import io.cleave.e2e.support.StandaloneServer;
import io.cleave.manager.imports.ImportStatus;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cleave import} under a write-heavy load, in rounds: each round imports another database of
 * one standalone server into four hashed shards while eight clients run sysbench's oltp_write_only
 * on it through the proxy, before, during and after its cutover. The clients touch their rows in
 * descending order, so one server gives them no deadlock: every error a client gets fails the test.
 * {@code -Dimport.errorRounds=N} runs more rounds (default 1).
 */
class ClientErrorsDuringImportIT {

    private static final int TABLES = 3;
    private static final int ROWS = 2000;

    @Test
    void databasesImportUnderWritesWithoutAClientError() throws Exception {
        int rounds = Integer.getInteger("import.errorRounds", 1);
        StringBuilder sharding = new StringBuilder("""
                sharding:
                  keyspaces:
                    - { name: sb, function: hash, buckets: 64, key_type: integer }
                  tables:
                """);
        for (int t = 1; t <= TABLES; t++) {
            sharding.append("    - { name: sbtest").append(t).append(", keyspace: sb, column: id }\n");
        }
        try (StandaloneServer source = StandaloneServer.start(List.of())) {
            source.root("CREATE USER app@'%' IDENTIFIED BY 'app'; GRANT ALL ON *.* TO app@'%'");
            List<String> done = new ArrayList<>();
            for (int round = 1; round <= rounds; round++) {
                String db = "shop" + round;
                source.root("CREATE DATABASE " + db);
                try (Connection c = source.connect("app", "app", db)) {
                    SbLoad.prepare(c, TABLES, ROWS);
                }
                // A home of its own each round: rules name tables, not databases, so shop2's tables could
                // not join shop1's on the same shards.
                try (CleaveTestHome home = CleaveTestHome.builder().shards(4).bufferPoolPerShardMiB(32)
                        .extraYaml(sharding.toString()).create();
                     RunningDaemon daemon = home.start()) {
                    ImportStatus started = daemon.daemon().imports().start("mysql://app:app@127.0.0.1:" + source.port()
                            + "/" + db);
                    assertThat(started.state()).as(started.message()).isNotEqualTo("failed");
                    try (SbLoad load = new SbLoad(SbLoad.proxy(daemon.proxyPort(), db), 8, TABLES, ROWS, true)) {
                        ImportStatus ended = awaitImport(daemon, load);
                        assertThat(ended.state()).as(ended.message()).isEqualTo("done");
                        load.awaitTransactions(100, Duration.ofMinutes(1));
                        load.stopAndCheck();
                        done.add(db + ": " + load.transactions() + " transactions, clients paused " + ended.pauseMillis()
                                + " ms");
                    }
                }
            }
            System.out.println("ClientErrorsDuringImportIT: " + done);
        }
    }

    private static ImportStatus awaitImport(RunningDaemon daemon, SbLoad load) throws Exception {
        long deadline = System.nanoTime() + Duration.ofMinutes(3).toNanos();
        ImportStatus s = daemon.daemon().imports().status();
        while (!s.state().equals("done") && !s.state().equals("failed")) {
            assertThat(load.errorLines()).as("client errors during the import (%s)", s.state()).isEmpty();
            assertThat(System.nanoTime()).as("the import ended within 3 minutes: %s", s).isLessThan(deadline);
            Thread.sleep(100);
            s = daemon.daemon().imports().status();
        }
        return s;
    }
}
