package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.manager.daemon.Daemon;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.Map;

import static io.cleave.e2e.standby.StandbyIT.run;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static io.cleave.e2e.standby.StandbyIT.single;
import static org.assertj.core.api.Assertions.assertThat;

/** What a standby promoted under bank transfers must hold, however it was promoted. */
final class PromotedHome {

    private PromotedHome() {
    }

    /**
     * Through its proxy at {@code proxy}: every transfer a client saw acknowledged, the bank's total unchanged, and
     * a transfer across shards works; on each shard nothing prepared, no replication, writable.
     */
    static void servesEveryAcknowledgedTransfer(Daemon promoted, String proxy, BankTransfers load,
                                                BankTransfers.Shape shape) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:mysql://" + proxy + "/bank?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true", "root", "")) {
            Map<Long, Long> balances = BankTransfers.balances(c, "SELECT branch, id, balance FROM accounts");
            assertThat(load.differences(balances)).as("accounts that differ from the acknowledged transfers").isEmpty();
            assertThat(balances.values().stream().mapToLong(Long::longValue).sum()).as("the bank's total")
                    .isEqualTo(shape.rows() * BankTransfers.INITIAL);
            c.setAutoCommit(false);
            run(c, "UPDATE accounts SET balance = balance - 5 WHERE branch = 1 AND id = 1");
            run(c, "UPDATE accounts SET balance = balance + 5 WHERE branch = 150 AND id = 1");
            c.commit();
        }
        for (int s = 0; s < promoted.shardEndpoints().size(); s++) {
            // The proxy answers a cross-shard commit at its decision and commits the branches after: the transfer
            // just made may still have one prepared for a moment, never for seconds.
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (prepared(promoted, s) && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertThat(prepared(promoted, s)).as("branches left prepared on shard %d", s).isFalse();
            try (Connection sc = shard(promoted, s); Statement st = sc.createStatement();
                 ResultSet rs = st.executeQuery("SHOW SLAVE STATUS")) {
                assertThat(rs.next()).as("shard %d replicates nothing", s).isFalse();
                assertThat(single(sc, "SELECT @@read_only")).as("shard %d read-only", s).isEqualTo("0");
            }
        }
    }

    private static boolean prepared(Daemon promoted, int shard) throws Exception {
        try (Connection sc = shard(promoted, shard); Statement st = sc.createStatement();
             ResultSet rs = st.executeQuery("XA RECOVER")) {
            return rs.next();
        }
    }
}
