package io.cleave.e2e.transactions;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.CommandLine;
import io.cleave.e2e.support.RunningDaemon;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

import java.sql.Connection;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * sysbench oltp_read_write with 8 threads over 4 shards (config/sysbench.yaml's shape) on small
 * tables, where transactions that update rows on several shards in opposite orders deadlock
 * across shards every few seconds. Without the detector all threads soon stand still until
 * innodb_lock_wait_timeout (50 s); with it, no transaction takes 2 s. About a minute, so only with
 * {@code -Ddeadlocks.sysbench=true}; bench/cleave-bench.sh deadlocks measures the same with the
 * detector off and on.
 */
@EnabledIfSystemProperty(named = "deadlocks.sysbench", matches = "true")
class SysbenchDeadlocksIT {

    private static final int SHARDS = 4;
    private static final int TABLES = 4;
    private static final int TABLE_SIZE = 500;

    @Test
    void noTransactionWaitsForADeadlockAcrossShards() throws Exception {
        StringBuilder sharding = new StringBuilder("""
                sharding:
                  keyspaces:
                    - { name: sbtest, function: hash, buckets: 256, key_type: integer }
                  tables:
                """);
        for (int t = 1; t <= TABLES; t++) {
            sharding.append("    - { name: sbtest").append(t).append(", keyspace: sbtest, column: id }\n");
        }
        try (CleaveTestHome home = CleaveTestHome.builder().shards(SHARDS).extraYaml(sharding.toString()).create();
             RunningDaemon daemon = home.start()) {
            try (Connection c = daemon.connectProxy("", "")) {
                Bank.execute(c, "CREATE DATABASE sbtest");
            }
            CommandLine.Result prepare = sysbench(daemon, List.of("--threads=4"), "prepare");
            assertThat(prepare.exitCode()).as(prepare.output()).isZero();

            CommandLine.Result run = sysbench(daemon, List.of("--threads=8", "--time=30", "--report-interval=0"), "run");

            assertThat(run.exitCode()).as(run.output()).isZero();
            String out = run.stdout();
            assertThat(out).doesNotContain("FATAL");
            assertThat(number(out, "transactions:")).isPositive();
            assertThat(number(out, "reconnects:")).isZero();
            assertThat(daemon.metric("cleave_proxy_deadlocks_total")).as("deadlocks across shards broken").isPositive();
            assertThat(decimal(out, "max:")).as("the slowest transaction, ms:%n%s", out).isLessThan(2000);
            for (int t = 1; t <= TABLES; t++) {
                long onShards = 0;
                for (int s = 0; s < SHARDS; s++) {
                    try (Connection c = daemon.connect(s)) {
                        onShards += Long.parseLong(Bank.rows(c, "SELECT COUNT(*) FROM sbtest.sbtest" + t).get(0));
                    }
                }
                assertThat(onShards).as("sbtest%d rows", t).isEqualTo(TABLE_SIZE);
            }
        }
    }

    private static CommandLine.Result sysbench(RunningDaemon daemon, List<String> options, String command)
            throws Exception {
        List<String> cmd = new ArrayList<>(List.of(CommandLine.require("sysbench", "sysbench"), "oltp_read_write",
                "--db-driver=mysql", "--mysql-host=127.0.0.1", "--mysql-port=" + daemon.proxyPort(),
                "--mysql-user=root", "--mysql-password=", "--mysql-db=sbtest", "--tables=" + TABLES,
                "--table-size=" + TABLE_SIZE, "--auto-inc=off"));
        cmd.addAll(options);
        cmd.add(command);
        return CommandLine.run(cmd, 180);
    }

    private static long number(String output, String label) {
        return (long) decimal(output, label);
    }

    private static double decimal(String output, String label) {
        Matcher m = Pattern.compile(Pattern.quote(label) + "\\s+([0-9.]+)").matcher(output);
        assertThat(m.find()).as("'%s' in sysbench output:%n%s", label, output).isTrue();
        return Double.parseDouble(m.group(1));
    }
}
