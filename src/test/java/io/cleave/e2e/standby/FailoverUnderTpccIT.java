package io.cleave.e2e.standby;

import io.cleave.bench.jdbc.JdbcTarget;
import io.cleave.bench.tpcc.check.ConsistencyCheck;
import io.cleave.bench.tpcc.run.ConnectionSource;
import io.cleave.bench.tpcc.run.ErrorStat;
import io.cleave.bench.tpcc.run.IntervalListener;
import io.cleave.bench.tpcc.run.RunOptions;
import io.cleave.bench.tpcc.run.RunResult;
import io.cleave.bench.tpcc.run.TpccDriver;
import io.cleave.bench.tpcc.txn.TransactionType;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.TpccSharding;
import io.cleave.manager.daemon.Daemon;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import javax.sql.DataSource;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An unplanned failover under TPC-C, measured: the pair of {@link FailoverIT} (A from the jar in its own process, B
 * in this JVM, three etcd members, {@code lease_s: 3}) over 2 shards ({@code -Dstandby.shards=N}: N), one TPC-C
 * warehouse per shard besides the bank. TPC-C terminals and bank transfers (a third across shards) run through
 * A's proxy; then A's daemon and every shard of it are SIGKILLed. The terminals reconnect to whichever proxy
 * answers (A's, else B's) and go on; the transfers move to B's proxy. Printed: the kill to the first write B's
 * proxy served, TPC-C's time without a completed transaction, its errors by code, other processes' CPU. Asserted:
 * the terminals saw no error but lost connections, TPC-C's consistency conditions 1-4 hold on B's shards, every
 * acknowledged transfer is on B, the total unchanged, nothing prepared, B the one primary at epoch 2.
 * A measurement: {@code -Dstandby.bench=true} (terminals {@code -Dstandby.bench.terminals=T}, seconds before and
 * after the kill {@code -Dstandby.bench.seconds=S}).
 */
class FailoverUnderTpccIT {

    private static final int SHARDS = StandbyIT.PAIR_SHARDS;

    @Test
    void theStandbyTakesOverUnderTpccWhenThePrimaryHostIsKilled() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("standby.bench"), "a measurement: run with -Dstandby.bench=true");
        int terminals = Integer.getInteger("standby.bench.terminals", 4);
        int seconds = Integer.getInteger("standby.bench.seconds", 20);
        String sharding = StandbyIT.sharding(SHARDS).replace("  tables:\n", TpccSharding.keyspace(SHARDS) + "  tables:\n")
                + TpccSharding.tables();
        FailoverIT.Primary withTpcc = new FailoverIT.Primary(sharding, 128, a -> {
            try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + a.proxyPort()
                    + "/?sslMode=DISABLED&allowPublicKeyRetrieval=true", "root", "");
                 Statement s = c.createStatement()) {
                s.execute("CREATE DATABASE tpcc");
            }
            TpccSharding.loadOneWarehousePerShard(shardsOf(a));
        });
        try (FailoverIT.Pair pair = FailoverIT.Pair.start("tpcc", false, withTpcc)) {
            String bProxy = pair.addresses.proxyListen();
            JdbcTarget onA = target("127.0.0.1:" + pair.a.proxyPort());
            JdbcTarget onB = target(bProxy);
            // A terminal that lost its connection opens the next where a proxy answers: A's until it dies, then B's.
            ConnectionSource either = () -> {
                try {
                    return onA.getConnection();
                } catch (SQLException refused) {
                    return onB.getConnection();
                }
            };
            List<Long> aPids = new ArrayList<>(pair.a.serverPids().values());
            aPids.add(pair.up.pid());
            List<Long> bPids = new ArrayList<>(List.of(ProcessHandle.current().pid()));
            pair.b.status().forEach(s -> bPids.add(s.pid()));

            AtomicLong killedAt = new AtomicLong(Long.MAX_VALUE);
            AtomicBoolean outageSeen = new AtomicBoolean();
            AtomicLong servedAgainAt = new AtomicLong();
            // After the kill, the first interval in which no transaction completed, then the first in which one did:
            // its start. (An interval's bounds are known here only to the listener's call, a little late, so a
            // transaction completed just before the kill could otherwise count as served after it.)
            IntervalListener firstServedAfterKill = (sample, soFar) -> {
                long end = System.nanoTime();
                long begin = end - (long) (sample.lengthSeconds() * 1e9);
                boolean served = sample.tps().values().stream().anyMatch(tps -> tps > 0);
                if (end <= killedAt.get() || servedAgainAt.get() != 0) {
                    return;
                }
                if (!served) {
                    outageSeen.set(true);
                } else if (outageSeen.get()) {
                    servedAgainAt.set(begin);
                }
            };
            long[] cpu0 = SemiSyncCostIT.CpuUse.read(aPids);
            long[] ours0 = SemiSyncCostIT.CpuUse.read(bPids);
            long started = System.nanoTime();
            CompletableFuture<RunResult> tpcc = CompletableFuture.supplyAsync(() -> {
                try {
                    return TpccDriver.run(either, RunOptions.of(SHARDS, terminals, Duration.ofSeconds(2L * seconds))
                            .withReportInterval(Duration.ofMillis(100)), "A's proxy, then B's", firstServedAfterKill);
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            Thread.sleep(seconds * 1000L);

            long[] aAtKill = SemiSyncCostIT.CpuUse.read(aPids);
            pair.load.outageBegins();
            long lost = System.nanoTime();
            killedAt.set(lost);
            pair.up.destroyForcibly();
            for (long pid : aPids) {
                ProcessHandle.of(pid).ifPresent(ProcessHandle::destroyForcibly);
            }
            pair.load.retarget(bProxy);
            long firstWrite = pair.awaitFirstWriteOnB(lost);
            pair.load.outageOver();
            RunResult run = tpcc.get(10, TimeUnit.MINUTES);
            long[] ours1 = SemiSyncCostIT.CpuUse.read(bPids);
            double others = ((ours1[0] - cpu0[0]) - (aAtKill[1] - cpu0[1]) - (ours1[1] - ours0[1])) / 100.0 * 1e9
                    / (System.nanoTime() - started);
            pair.load.awaitAcknowledged(50);
            pair.load.close();
            System.out.println("FailoverUnderTpccIT: transfers: " + pair.load.summary());

            long withoutService = servedAgainAt.get() == 0 ? -1 : (servedAgainAt.get() - lost) / 1_000_000;
            System.out.printf(Locale.ROOT, "FailoverUnderTpccIT: %d shards, %d terminals: from SIGKILL of the primary"
                            + " host to the first write served through the standby's proxy: %d ms (lease 3 s); TPC-C's first"
                            + " transaction completed after its outage: %d ms after the kill (100 ms intervals); TPC-C %.0f tpmC"
                            + " over %d s, errors %d %s, reconnects %d; other processes' CPU %.0f%% of one core%n",
                    SHARDS, terminals, firstWrite, withoutService, run.tpmC(), 2 * seconds, run.totalErrors(),
                    run.errors().stream().map(e -> e.code() + "/" + e.sqlState() + " x" + e.count() + " (" + e.firstMessage()
                            + ")").toList(), run.reconnects(), others * 100);

            assertThat(pair.load.errors()).as("transfer errors other than lost connections").isEmpty();
            assertThat(run.errors()).as("TPC-C errors other than the connections the kill cut")
                    .allSatisfy(FailoverUnderTpccIT::lostConnection);
            assertThat(withoutService).as("TPC-C served again after the kill").isPositive();
            assertThat(run.transaction(TransactionType.NEW_ORDER).completed()).isPositive();
            pair.checkB(pair.load, 2);
            assertThat(ConsistencyCheck.check(shardsOf(pair.b), SHARDS)).as("TPC-C's conditions on B's shards").isEmpty();
        }
    }

    /** A connection the kill cut: the driver's SQLSTATE class 08. */
    private static void lostConnection(ErrorStat e) {
        assertThat(e.sqlState() == null ? "" : e.sqlState()).as("%s", e).startsWith("08");
    }

    private static JdbcTarget target(String proxy) {
        return new JdbcTarget("jdbc:mysql://" + proxy + "/tpcc?sslMode=DISABLED&allowPublicKeyRetrieval=true"
                + "&connectTimeout=2000", "root", "").withServerPreparedStatements();
    }

    /** A's shards as the shard account, for loading them directly. */
    private static List<DataSource> shardsOf(CleaveTestHome a) throws Exception {
        String secret = Files.readString(a.home().shardSecretFile()).trim();
        List<DataSource> out = new ArrayList<>();
        for (int s = 0; s < SHARDS; s++) {
            out.add(new JdbcTarget("jdbc:mysql://127.0.0.1:" + (a.basePort() + s) + "/tpcc?sslMode=DISABLED"
                    + "&allowPublicKeyRetrieval=true&rewriteBatchedStatements=true",
                    io.cleave.manager.instance.ShardAccount.USER, secret));
        }
        return out;
    }

    private static List<DataSource> shardsOf(Daemon b) {
        return StandbyUnderTpccIT.shards(b);
    }
}
