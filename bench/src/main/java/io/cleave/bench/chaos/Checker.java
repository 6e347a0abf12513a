package io.cleave.bench.chaos;

import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * One round of checks with the workloads at rest: what the clients saw, what is left open, the
 * data read from every shard directly against the clients' ledgers, and the same totals read
 * through the proxy. The data is read between
 * two reads of the shard map; when a move changed the map meanwhile, it is read again.
 */
final class Checker {
    /** Long enough for the proxy's recovery pass (every 5 s in the soak's home) to settle what a kill left prepared. */
    private static final Duration LEFTOVERS_TIMEOUT = Duration.ofSeconds(90);
    /**
     * How long the data may be read again while moves keep changing the map: with the clients at rest
     * a scale's or rebalance's moves cut over every second or two, faster than one read of everything.
     */
    private static final Duration MAP_STABLE_TIMEOUT = Duration.ofMinutes(5);

    private final ChaosHome home;
    private final ClientErrors errors;
    private final BankCheck bank;
    private final KvCheck kv;
    private final TpccCheck tpcc;
    private final Violations violations;
    private final WorkloadCounts counts;
    private final ProxyTotalsCheck proxyTotals;

    /** tpcc: null without TPC-C. */
    Checker(ChaosHome home, BankCheck bank, KvCheck kv, TpccCheck tpcc, Violations violations, WorkloadCounts counts,
            ClientErrors errors) {
        this.home = home;
        this.errors = errors;
        this.bank = bank;
        this.kv = kv;
        this.tpcc = tpcc;
        this.violations = violations;
        this.counts = counts;
        this.proxyTotals = new ProxyTotalsCheck(home.proxy(Bank.DATABASE));
    }

    List<CheckResult> run(int clientConnections) throws SQLException, InterruptedException {
        List<CheckResult> results = new ArrayList<>();
        results.add(CheckResult.of("what clients saw", String.format(Locale.ROOT, "%,d reads of acknowledged writes and"
                + " %,d reads of one-server invariants found them (%,d reads in a kill's documented window excused)",
            counts.readBacks(), counts.invariantReads(), violations.excusedCount()), violations.first()));
        results.add(CheckResult.of("errors no fault explains", String.format(Locale.ROOT, "of %,d errors the"
            + " clients got (lost connections, deadlocks, shards away), none a duplicate key, unknown SQL, a refusal or an"
            + " internal error of the proxy", errors.total()), errors.neverExpected()));
        results.addAll(new LeftoversCheck(home, home::metrics).check(() -> home.map().shardCount(), clientConnections,
            LEFTOVERS_TIMEOUT));
        results.addAll(data());
        return results;
    }

    private List<CheckResult> data() throws SQLException, InterruptedException {
        long deadline = System.nanoTime() + MAP_STABLE_TIMEOUT.toNanos();
        for (int attempt = 1; ; attempt++) {
            boolean last = System.nanoTime() > deadline;
            ShardMapView before = home.map();
            List<CheckResult> out;
            try {
                BankCheck.BankRows bankRows = BankCheck.read(before, home);
                KvCheck.KvRows kvRows = kv.read(before, home);
                out = new ArrayList<>(bank.judge(bankRows));
                out.addAll(kv.judge(kvRows));
                out.add(proxyTotals.check(bankRows, kvRows));
                if (tpcc != null) {
                    out.addAll(tpcc.check(before, home));
                }
            } catch (SQLException e) {
                // A scale down stops the shards the map stopped naming: a read begun before it can find one gone.
                if (home.map().version() == before.version() || last) {
                    throw e;
                }
                continue;
            }
            ShardMapView after = home.map();
            if (after.version() == before.version()) {
                return out;
            }
            if (last) {
                return List.of(CheckResult.of("shard map", "", List.of("the shard map changed during each of " + attempt
                    + " reads of the data in " + MAP_STABLE_TIMEOUT.toMinutes() + " minutes (last version "
                    + before.version() + " -> " + after.version() + ")")));
            }
            Thread.sleep(500);
        }
    }
}
