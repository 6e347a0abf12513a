package io.cleave.e2e.routing;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.cli.CleaveMain;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cleave explain "<sql>"} (through the daemon's admin API) and {@code EXPLAIN CLEAVE <sql>}
 * (through the proxy) show a statement's plan and the shards its values reach, agree with each
 * other, and do not run the statement.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ExplainIT {

    private static final String SHARDING = """
            sharding:
              keyspaces:
                - name: warehouse
                  function: range
                  ranges:
                    - { from: 1, to: 10, shard: 0 }
                    - { from: 11, shard: 1 }
              tables:
                - { name: warehouse, keyspace: warehouse, column: w_id }
                - { name: item, type: reference }
            """;

    private CleaveTestHome home;
    private RunningDaemon daemon;

    @BeforeAll
    void start() throws SQLException {
        home = CleaveTestHome.builder().shards(2).extraYaml(SHARDING).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE ex");
            s.execute("CREATE TABLE ex.warehouse (w_id INT PRIMARY KEY, w_name VARCHAR(10))");
            s.execute("INSERT INTO ex.warehouse (w_id, w_name) VALUES (1, 'one'), (12, 'twelve')");
        }
    }

    @AfterAll
    void stop() {
        if (daemon != null) {
            daemon.close();
        }
        home.close();
    }

    @Test
    void theCliShowsPlanAndShards() {
        Cli one = cli("explain", "--home", home.root().toString(), "SELECT w_name FROM warehouse WHERE w_id = 12");
        assertThat(one.code()).as(one.err()).isZero();
        assertThat(one.out()).contains("statement: SELECT w_name FROM warehouse WHERE w_id = 12")
                .contains("plan:      route keyed [warehouse[warehouse]=[$0]]").contains("shards:    shard 1");

        Cli all = cli("explain", "--home", home.root().toString(),
                "SELECT w_name, COUNT(*) FROM warehouse GROUP BY w_name ORDER BY w_name");
        assertThat(all.out()).contains("merge (group").contains("WEIGHT_STRING").contains("shards:    shards 0, 1 (all)");

        Cli evaluated = cli("explain", "--home", home.root().toString(), "SELECT COUNT(DISTINCT w_name) FROM warehouse");
        assertThat(evaluated.code()).isZero();
        assertThat(evaluated.out()).contains("evaluate on shard 0 gathering [warehouse (all shards)] by evaluated_on_one_shard")
                .contains("shards:    evaluated on shard 0 over the rows of [warehouse (all shards)]");

        Cli refused = cli("explain", "--home", home.root().toString(),
                "SELECT COUNT(DISTINCT w_name) FROM warehouse FOR UPDATE");
        assertThat(refused.code()).isZero();
        assertThat(refused.out()).contains("multi-shard refused").contains("shards:    none: it would need shards 0, 1");
    }

    @Test
    void theCliPrintsJson() throws Exception {
        Cli json = cli("explain", "--json", "--home", home.root().toString(),
                "INSERT INTO warehouse (w_id, w_name) VALUES (2, 'a'), (30, 'b'), (3, 'c')");
        assertThat(json.code()).as(json.err()).isZero();
        JsonNode report = new ObjectMapper().readTree(json.out());
        assertThat(report.get("plan").asText()).isEqualTo("insert into warehouse by warehouse rows [$0, $2, $4]");
        assertThat(report.get("shards").asText()).isEqualTo("shard 0 (rows 1, 3), shard 1 (row 2)");
    }

    @Test
    void theProxyAnswersExplainCleaveLikeTheCliAndRunsNothing() throws Exception {
        String sql = "DELETE FROM warehouse WHERE w_id IN (1, 12)";
        Cli cli = cli("explain", "--json", "--home", home.root().toString(), sql);
        JsonNode report = new ObjectMapper().readTree(cli.out());
        try (Connection c = daemon.connectProxy("ex", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("EXPLAIN CLEAVE " + sql)) {
            assertThat(rs.getMetaData().getColumnLabel(1)).isEqualTo("plan");
            assertThat(rs.getMetaData().getColumnLabel(2)).isEqualTo("shards");
            assertThat(rs.next()).isTrue();
            assertThat(rs.getString("plan")).isEqualTo(report.get("plan").asText()).contains("write; sum of shards");
            assertThat(rs.getString("shards")).isEqualTo("shards 0, 1 (all)").isEqualTo(report.get("shards").asText());
            assertThat(rs.next()).isFalse();
        }
        try (Connection c = daemon.connectProxy("ex", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT COUNT(*) FROM warehouse")) {
            rs.next();
            assertThat(rs.getInt(1)).as("explained, not run").isEqualTo(2);
        }
    }

    @Test
    void explainCleaveNamesTheShardOfAKeyAndTheReasonOfARefusal() throws Exception {
        try (Connection c = daemon.connectProxy("ex", ""); Statement s = c.createStatement()) {
            try (ResultSet rs = s.executeQuery("explain cleave SELECT * FROM warehouse WHERE w_id = 5")) {
                rs.next();
                assertThat(rs.getString("shards")).isEqualTo("shard 0");
            }
            try (ResultSet rs = s.executeQuery("EXPLAIN CLEAVE SELECT i.* FROM warehouse w JOIN item i ON i.i_id = w.w_id")) {
                rs.next();
                assertThat(rs.getString("shards")).isEqualTo("shards 0, 1 (all)");
            }
            try (ResultSet rs = s.executeQuery("EXPLAIN CLEAVE SET autocommit = 0")) {
                rs.next();
                assertThat(rs.getString("plan")).startsWith("session");
                assertThat(rs.getString("shards")).startsWith("none: a session statement");
            }
        }
    }

    private record Cli(int code, String out, String err) {
    }

    private static Cli cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = CleaveMain.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        int code = cmd.execute(args);
        return new Cli(code, out.toString(), err.toString());
    }
}
