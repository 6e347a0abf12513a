package io.cleave.e2e.standby;

import io.cleave.e2e.moves.BankTransfers;
import io.cleave.manager.daemon.Daemon;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static io.cleave.e2e.standby.StandbyIT.run;
import static io.cleave.e2e.standby.StandbyIT.shard;
import static org.assertj.core.api.Assertions.assertThat;

/** What a standby promoted under bank transfers must hold, however it was promoted. */
final class PromotedHome {

    /** A statement on one of a home's shards as its shard account, however the test reaches the shard: its rows' first column. */
    interface ShardSql {
        List<String> rows(int shard, String sql) throws Exception;
    }

    private PromotedHome() {
    }

    /** The shards of a daemon in this JVM, over loopback. */
    static ShardSql of(Daemon daemon) {
        return (s, sql) -> {
            try (Connection c = shard(daemon, s); Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
                List<String> out = new ArrayList<>();
                while (rs.next()) {
                    out.add(rs.getString(1));
                }
                return out;
            }
        };
    }

    static void servesEveryAcknowledgedTransfer(Daemon promoted, String proxy, BankTransfers load,
                                                BankTransfers.Shape shape) throws Exception {
        servesEveryAcknowledgedTransfer(of(promoted), proxy, "", load, shape);
    }

    /**
     * Through its proxy at {@code proxy} (root with {@code password}): every transfer a client saw acknowledged, the
     * bank's total unchanged, and a transfer across shards works; on each shard nothing prepared, no replication,
     * writable.
     */
    static void servesEveryAcknowledgedTransfer(ShardSql shards, String proxy, String password, BankTransfers load,
                                                BankTransfers.Shape shape) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:mysql://" + proxy + "/bank?sslMode=DISABLED"
                + "&allowPublicKeyRetrieval=true", "root", password)) {
            Map<Long, Long> balances = BankTransfers.balances(c, "SELECT branch, id, balance FROM accounts");
            assertThat(load.differences(balances)).as("accounts that differ from the acknowledged transfers").isEmpty();
            assertThat(balances.values().stream().mapToLong(Long::longValue).sum()).as("the bank's total")
                    .isEqualTo(shape.rows() * BankTransfers.INITIAL);
            c.setAutoCommit(false);
            // There and back, so the clients' ledger still holds for a later failover of the same run.
            for (int amount : new int[] {5, -5}) {
                run(c, "UPDATE accounts SET balance = balance - " + amount + " WHERE branch = 1 AND id = 1");
                run(c, "UPDATE accounts SET balance = balance + " + amount + " WHERE branch = 150 AND id = 1");
                c.commit();
            }
        }
        for (int s = 0; s < shape.shards(); s++) {
            // The proxy answers a cross-shard commit at its decision and commits the branches after: the transfer
            // just made may still have one prepared for a moment, never for seconds.
            // Under other load (TPC-C beside the transfers) new branches come and go: what must not be is a branch
            // still prepared 10 s after it was seen (rows name the branch where the ShardSql gives whole rows).
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            List<String> prepared = shards.rows(s, "XA RECOVER");
            while (!prepared.isEmpty() && System.nanoTime() < deadline) {
                Thread.sleep(20);
                List<String> now = shards.rows(s, "XA RECOVER");
                prepared = prepared.stream().filter(now::contains).toList();
            }
            assertThat(prepared).as("branches left prepared on shard %d for 10 s", s).isEmpty();
            assertThat(shards.rows(s, "SHOW SLAVE STATUS")).as("shard %d replicates nothing", s).isEmpty();
            assertThat(shards.rows(s, "SELECT @@read_only")).as("shard %d read-only", s).containsExactly("0");
        }
    }
}
