package io.cleave.e2e.proxy;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.CommandLine;
import io.cleave.e2e.support.RunningDaemon;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * sysbench through the proxy against one shard with no sharding rules (the shape of
 * config/single.yaml): short oltp_point_select and oltp_read_only runs, with server-side prepared
 * statements and with --db-ps-mode=disable. Every run must finish without an error, and the
 * tables must read the same through the proxy as on the shard.
 */
class SysbenchIT {

    private static final int TABLES = 2;
    private static final int TABLE_SIZE = 1000;

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() throws Exception {
        home = CleaveTestHome.builder().shards(1).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement st = c.createStatement()) {
            st.execute("CREATE DATABASE sbtest");
        }
        CommandLine.Result prepare = sysbench("oltp_read_only", List.of(), "prepare");
        assertThat(prepare.exitCode()).as(prepare.output()).isZero();
        assertThat(prepare.stdout()).contains("Inserting " + TABLE_SIZE + " records into 'sbtest" + TABLES + "'");
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

    private static CommandLine.Result sysbench(String test, List<String> options, String command) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(CommandLine.require("sysbench", "sysbench"), test,
                "--db-driver=mysql", "--mysql-host=127.0.0.1", "--mysql-port=" + daemon.proxyPort(), "--mysql-user=root",
                "--mysql-password=", "--mysql-db=sbtest", "--tables=" + TABLES, "--table-size=" + TABLE_SIZE));
        cmd.addAll(options);
        cmd.add(command);
        return CommandLine.run(cmd, 120);
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({
        "oltp_point_select, --db-ps-mode=auto",
        "oltp_point_select, --db-ps-mode=disable",
        "oltp_read_only, --db-ps-mode=auto",
        "oltp_read_only, --db-ps-mode=disable",
    })
    void runsWithoutErrors(String test, String psMode) throws Exception {
        double executesBefore = metric("cleave_proxy_queries_total{command=\"stmt_execute\",route=\"single_shard\"}");
        CommandLine.Result run = sysbench(test, List.of(psMode, "--time=3", "--threads=2", "--report-interval=0"), "run");
        assertThat(run.exitCode()).as(run.output()).isZero();
        String out = run.stdout();
        assertThat(out).doesNotContain("FATAL").doesNotContain("ERROR");
        assertThat(number(out, "ignored errors:")).isZero();
        assertThat(number(out, "reconnects:")).isZero();
        long reads = number(out, "read:");
        long transactions = number(out, "transactions:");
        assertThat(reads).isPositive();
        assertThat(transactions).isPositive();
        // oltp_point_select is one query per transaction; oltp_read_only 14 (10 point selects, 4 ranges).
        assertThat(reads).isEqualTo(transactions * (test.equals("oltp_point_select") ? 1 : 14));
        double executes = metric("cleave_proxy_queries_total{command=\"stmt_execute\",route=\"single_shard\"}")
                - executesBefore;
        if (psMode.endsWith("disable")) {
            assertThat(executes).as("text protocol only").isZero();
        } else {
            assertThat(executes).as("server-side prepared statements").isGreaterThanOrEqualTo(reads);
        }
        for (int t = 1; t <= TABLES; t++) {
            String sql = "SELECT COUNT(*), SUM(k), SUM(CRC32(c)), SUM(CRC32(pad)) FROM sbtest.sbtest" + t;
            List<String> viaProxy;
            try (Connection c = daemon.connectProxy("sbtest", "")) {
                viaProxy = row(c, sql);
            }
            try (Connection c = daemon.connect(0)) {
                assertThat(viaProxy).isEqualTo(row(c, sql));
            }
            assertThat(viaProxy.get(0)).isEqualTo(Integer.toString(TABLE_SIZE));
        }
    }

    private static List<String> row(Connection c, String sql) throws SQLException {
        try (Statement st = c.createStatement(); ResultSet rs = st.executeQuery(sql)) {
            assertThat(rs.next()).isTrue();
            List<String> out = new ArrayList<>();
            for (int i = 1; i <= rs.getMetaData().getColumnCount(); i++) {
                out.add(rs.getString(i));
            }
            return out;
        }
    }

    private static long number(String output, String label) {
        Matcher m = Pattern.compile(Pattern.quote(label) + "\\s+(\\d+)").matcher(output);
        assertThat(m.find()).as("'%s' in sysbench output:%n%s", label, output).isTrue();
        return Long.parseLong(m.group(1));
    }

    private static double metric(String series) throws Exception {
        String body = daemon.admin("GET", "/metrics", false).body();
        Matcher m = Pattern.compile("(?m)^" + Pattern.quote(series) + " ([0-9.eE+-]+)$").matcher(body);
        return m.find() ? Double.parseDouble(m.group(1)) : 0;
    }
}
