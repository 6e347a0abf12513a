package io.cleave.e2e.routing;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.router.keyspace.ShardKey;
import io.cleave.router.plan.TargetResolver;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * sysbench oltp_read_write against the proxy over 4 shards, with the sharding rules of
 * {@code config/sysbench.yaml} (sbtestN hashed by id). {@code prepare} leaves the ids to
 * AUTO_INCREMENT, so the proxy draws them from its sequence; the run mixes point and range reads
 * (merged across shards), SUM, ORDER BY, DISTINCT, updates, and a delete plus insert of the same
 * id, in transactions. One thread must run without a single error. Four threads then meet lock
 * conflicts (sysbench rolls those transactions back and counts them as ignored errors; a lock
 * cycle across two shards is only broken by the lock wait timeout, kept short here): nothing
 * else may fail, and every table must still hold exactly its rows, each on its shard, with no
 * transaction left open.
 */
class ShardedSysbenchIT {

    private static final int TABLES = 4;
    private static final int TABLE_SIZE = 500;
    private static final Pattern IGNORED = Pattern.compile("ignored errors:\\s+(\\d+)");
    private static final Pattern RECONNECTS = Pattern.compile("reconnects:\\s+(\\d+)");
    private static final Pattern TRANSACTIONS = Pattern.compile("transactions:\\s+(\\d+)");

    @Test
    void oltpReadWriteRunsWithoutErrorsAndKeepsEveryRow() throws Exception {
        assertThat(sysbenchInstalled()).as("sysbench on PATH (scripts/test installs it with apt-get)").isTrue();
        try (CleaveTestHome home = CleaveTestHome.builder().shards(4).extraYaml(shardingOfSysbenchConfig())
                .serverOption("innodb_lock_wait_timeout", "2").create();
             RunningDaemon daemon = home.start()) {
            try (Connection c = daemon.connectProxy("", "")) {
                execute(c, "CREATE DATABASE sbtest");
            }
            Run prepare = sysbench(daemon, "prepare", 1, 0);
            assertThat(prepare.exit()).as("prepare:\n%s", prepare.output()).isZero();
            checkTables(daemon);

            Run single = sysbench(daemon, "run", 1, 10);
            assertThat(single.exit()).as("run with 1 thread:\n%s", single.output()).isZero();
            assertThat(single.output()).doesNotContain("FATAL");
            assertThat(single.count(IGNORED)).as("errors with 1 thread:\n%s", single.output()).isZero();
            assertThat(single.count(RECONNECTS)).isZero();
            assertThat(single.count(TRANSACTIONS)).isPositive();

            Run concurrent = sysbench(daemon, "run", 4, 10);
            System.out.printf("sysbench oltp_read_write over 4 shards: 1 thread %d transactions, %d errors; 4 threads"
                    + " %d transactions, %d ignored lock conflicts%n", single.count(TRANSACTIONS), single.count(IGNORED),
                    concurrent.count(TRANSACTIONS), concurrent.count(IGNORED));
            assertThat(concurrent.exit()).as("run with 4 threads:\n%s", concurrent.output()).isZero();
            assertThat(concurrent.output()).doesNotContain("FATAL");
            assertThat(concurrent.count(RECONNECTS)).isZero();
            assertThat(concurrent.count(TRANSACTIONS)).isPositive();
            checkTables(daemon);
            // No prepared branch and no open transaction stays behind. The last cross-shard commits'
            // branch commits and decision clean-ups run just after their clients were answered:
            // they are given a moment to end.
            io.cleave.e2e.support.Leftovers.awaitNothingOpen(daemon, java.time.Duration.ofSeconds(10));
        }
    }

    /** Every table has its rows, once each, on the shard its id maps to. */
    private static void checkTables(RunningDaemon daemon) throws SQLException {
        TargetResolver resolver = new TargetResolver(daemon.daemon().config().sharding().topology());
        for (int t = 1; t <= TABLES; t++) {
            String table = "sbtest" + t;
            try (Connection c = daemon.connectProxy("sbtest", "")) {
                assertThat(rows(c, "SELECT COUNT(*) FROM " + table)).containsExactly(String.valueOf(TABLE_SIZE));
            }
            Set<String> ids = new HashSet<>();
            for (int shard = 0; shard < 4; shard++) {
                try (Connection s = daemon.connect(shard)) {
                    for (String id : rows(s, "SELECT id FROM sbtest." + table)) {
                        assertThat(resolver.shardOf("sbtest", ShardKey.of(Long.parseLong(id)),
                                daemon.daemon().shardMaps().current())).as("%s id %s on shard %d", table, id, shard)
                                .isEqualTo(shard);
                        assertThat(ids.add(id)).as("%s id %s twice", table, id).isTrue();
                    }
                }
            }
            assertThat(ids).as(table).hasSize(TABLE_SIZE);
        }
    }

    private record Run(int exit, String output) {
        long count(Pattern p) {
            Matcher m = p.matcher(output);
            assertThat(m.find()).as("'%s' in sysbench's output:\n%s", p.pattern(), output).isTrue();
            return Long.parseLong(m.group(1));
        }
    }

    private static Run sysbench(RunningDaemon daemon, String command, int threads, int seconds)
            throws IOException, InterruptedException {
        List<String> args = new ArrayList<>(List.of("sysbench", "oltp_read_write", "--db-driver=mysql",
                "--mysql-host=127.0.0.1", "--mysql-port=" + daemon.proxyPort(), "--mysql-user=root",
                "--mysql-password=", "--mysql-db=sbtest", "--tables=" + TABLES, "--table-size=" + TABLE_SIZE,
                "--threads=" + threads, "--report-interval=0"));
        if (seconds > 0) {
            args.add("--time=" + seconds);
        }
        args.add(command);
        Path log = Files.createTempFile("sysbench-", ".log");
        try {
            Process p = new ProcessBuilder(args).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            if (!p.waitFor(seconds + 180, TimeUnit.SECONDS)) {
                p.destroyForcibly().waitFor();
                throw new AssertionError("sysbench " + command + " did not finish:\n" + Files.readString(log));
            }
            return new Run(p.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
        } finally {
            Files.deleteIfExists(log);
        }
    }

    private static boolean sysbenchInstalled() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "sysbench"))) {
                return true;
            }
        }
        return false;
    }

    /** The {@code sharding:} section of config/sysbench.yaml, found from the working directory upwards. */
    static String shardingOfSysbenchConfig() throws IOException {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !Files.isRegularFile(dir.resolve("config/sysbench.yaml"))) {
            dir = dir.getParent();
        }
        assertThat(dir).as("config/sysbench.yaml above " + Path.of("").toAbsolutePath()).isNotNull();
        String yaml = Files.readString(dir.resolve("config/sysbench.yaml"));
        int at = yaml.indexOf("\nsharding:");
        assertThat(at).as("a sharding section in config/sysbench.yaml").isPositive();
        return yaml.substring(at + 1);
    }

    private static List<String> rows(Connection c, String sql) throws SQLException {
        List<String> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                out.add(rs.getString(1));
            }
        }
        return out;
    }

    private static void execute(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }
}
