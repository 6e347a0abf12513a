package io.cleave.e2e.transactions;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.cli.CleaveMain;
import io.cleave.manager.cli.ExitCodes;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * In-doubt cross-shard transactions as an operator meets them. The branches are made on the shards
 * themselves, as an interrupted commit leaves them (XA START, a write, XA END, XA PREPARE, then the
 * connection goes; the server keeps the prepared branch), with or without a decision row on the
 * coordinator. Then: the admin API, {@code cleave xa list} and {@code cleave status} show them with
 * what recovery would do; {@code xa commit}/{@code rollback} settle them and refuse to contradict a
 * recorded decision unless forced; {@code xa recover} settles what it can; a branch whose
 * coordinator is stopped is the operator's call; the data on the shards shows every outcome; and
 * /metrics counts transactions, distributed commits and settled branches.
 *
 * <p>Periodic recovery is off in this home ({@code xa_recovery_interval_s: 0}): every branch stays
 * in doubt until the test itself settles it. The last test stops shard 2.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class InDoubtAdminIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SHARDING = """
            sharding:
              keyspaces:
                - name: k
                  function: range
                  ranges:
                    - { from: 1, to: 100, shard: 0 }
                    - { from: 101, to: 200, shard: 1 }
                    - { from: 201, shard: 2 }
              tables:
                - { name: acct, keyspace: k, column: id }
            """;

    /** Recorded commit on coordinator 0; prepared on shards 1 and 2. */
    private static final String DECIDED = "cleave:0:it:1:1";
    /** No decision on coordinator 0; prepared on shard 1. */
    private static final String UNDECIDED = "cleave:0:it:2:1";

    private final HttpClient http = HttpClient.newHttpClient();
    private CleaveTestHome home;
    private RunningDaemon daemon;

    @BeforeAll
    void start() throws SQLException {
        home = CleaveTestHome.builder().shards(3).extraYaml(SHARDING).proxyOption("xa_recovery_interval_s", 0).create();
        daemon = home.start();
        try (Connection c = daemon.connectProxy("", ""); Statement s = c.createStatement()) {
            s.execute("CREATE DATABASE app");
            s.execute("CREATE TABLE app.acct (id INT PRIMARY KEY, v VARCHAR(40))");
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
    @Order(1)
    void theApiListAndStatusShowEachBranchWithWhatRecoveryWouldDo() throws Exception {
        prepareBranch(1, DECIDED, 101, "decided");
        prepareBranch(2, DECIDED, 201, "decided");
        recordDecision(0, DECIDED);
        prepareBranch(1, UNDECIDED, 102, "undecided");

        HttpResponse<String> api = daemon.admin("GET", "/v1/xa", true);
        assertThat(api.statusCode()).as(api.body()).isEqualTo(200);
        assertThat(branches(JSON.readTree(api.body()))).containsExactlyInAnyOrder(
                "1 " + DECIDED + " 0 COMMIT", "2 " + DECIDED + " 0 COMMIT", "1 " + UNDECIDED + " 0 ROLLBACK");
        assertThat(daemon.admin("GET", "/v1/xa", false).statusCode()).isEqualTo(401);

        Cli list = cli("xa", "list");
        assertThat(list.code()).as(list.err()).isZero();
        assertThat(list.out()).startsWith("SHARD  COORDINATOR  RECOVERY")
                .containsPattern("(?m)^1\\s+0\\s+COMMIT\\s+" + DECIDED + "$")
                .containsPattern("(?m)^2\\s+0\\s+COMMIT\\s+" + DECIDED + "$")
                .containsPattern("(?m)^1\\s+0\\s+ROLLBACK\\s+" + UNDECIDED + "$");
        Cli json = cli("xa", "list", "--json");
        assertThat(branches(JSON.readTree(json.out()))).hasSize(3).contains("1 " + UNDECIDED + " 0 ROLLBACK");

        Cli status = cli("status");
        assertThat(status.code()).as(status.err()).isZero();
        assertThat(status.out()).contains("in-doubt transaction branches: 3")
                .contains("  shard 2: " + DECIDED + " (coordinator shard 0, recovery: COMMIT)")
                .contains("  shard 1: " + UNDECIDED + " (coordinator shard 0, recovery: ROLLBACK)");
        JsonNode statusJson = JSON.readTree(cli("status", "--json").out());
        assertThat(branches(statusJson.path("inDoubt"))).hasSize(3);
    }

    @Test
    @Order(2)
    void contradictingARecordedDecisionIsRefusedAndAnUnknownXidIsNotFound() throws Exception {
        Cli rollback = cli("xa", "rollback", DECIDED);
        assertThat(rollback.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(rollback.err()).contains("coordinator shard 0 recorded the commit of " + DECIDED)
                .contains("rolling back the branches on shards [1, 2] would leave the transaction half applied")
                .contains("force overrides this refusal");
        Cli commit = cli("xa", "commit", UNDECIDED);
        assertThat(commit.code()).isEqualTo(ExitCodes.REFUSED);
        assertThat(commit.err()).contains("coordinator shard 0 has no commit decision for " + UNDECIDED);
        assertThat(values(1, "SELECT COUNT(*) FROM app.acct")).containsExactly("0");
        assertThat(branches(JSON.readTree(daemon.admin("GET", "/v1/xa", true).body()))).hasSize(3);

        Cli unknown = cli("xa", "commit", "cleave:0:nope:9:9");
        assertThat(unknown.code()).isEqualTo(ExitCodes.NOT_FOUND);
        assertThat(unknown.err()).isEqualTo("error: transaction cleave:0:nope:9:9 has no prepared branch on any"
                + " reachable shard: it is settled already, or the id is wrong" + System.lineSeparator());

        HttpResponse<String> notFound = post("/v1/xa/rollback", "{\"xid\": \"cleave:0:nope:9:9\", \"force\": true}");
        assertThat(notFound.statusCode()).isEqualTo(404);
        assertThat(JSON.readTree(notFound.body()).path("error").asText()).contains("has no prepared branch");
        HttpResponse<String> conflict = post("/v1/xa/commit", "{\"xid\": \"" + UNDECIDED + "\"}");
        assertThat(conflict.statusCode()).isEqualTo(409);
        HttpResponse<String> noXid = post("/v1/xa/commit", "cleave:0:it:1:1");
        assertThat(noXid.statusCode()).isEqualTo(400);
        assertThat(noXid.body()).contains("send the transaction as a JSON body");
    }

    @Test
    @Order(3)
    void commitAndRollbackSettleEveryBranchOfTheTransaction() throws Exception {
        Cli commit = cli("xa", "commit", DECIDED);
        assertThat(commit.code()).as(commit.err()).isZero();
        assertThat(commit.out()).isEqualTo("committed " + DECIDED + " on shards 1, 2" + System.lineSeparator());
        assertThat(values(1, "SELECT v FROM app.acct WHERE id = 101")).containsExactly("decided");
        assertThat(values(2, "SELECT v FROM app.acct WHERE id = 201")).containsExactly("decided");
        try (Connection c = daemon.connectProxy("app", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT id FROM acct ORDER BY id")) {
            List<Integer> ids = new ArrayList<>();
            while (rs.next()) {
                ids.add(rs.getInt(1));
            }
            assertThat(ids).as("clients see the committed transaction").containsExactly(101, 201);
        }

        Cli rollback = cli("xa", "rollback", UNDECIDED);
        assertThat(rollback.code()).as(rollback.err()).isZero();
        assertThat(rollback.out()).isEqualTo("rolled back " + UNDECIDED + " on shard 1" + System.lineSeparator());
        assertThat(values(1, "SELECT COUNT(*) FROM app.acct WHERE id = 102")).containsExactly("0");

        assertThat(cli("xa", "list").out()).isEqualTo("no in-doubt transactions" + System.lineSeparator());
        assertThat(cli("status").out()).contains("in-doubt transaction branches: 0");
        assertThat(metric("cleave_proxy_xa_settled_total", "by=\"operator\"", "decision=\"commit\"")).isEqualTo(2.0);
        assertThat(metric("cleave_proxy_xa_settled_total", "by=\"operator\"", "decision=\"rollback\"")).isEqualTo(1.0);
    }

    @Test
    @Order(4)
    void forceOverridesARecordedDecision() throws Exception {
        String xid = "cleave:0:it:3:1";
        prepareBranch(2, xid, 202, "forced away");
        recordDecision(0, xid);
        Cli forced = cli("xa", "rollback", xid, "--force");
        assertThat(forced.code()).as(forced.err()).isZero();
        assertThat(forced.out()).isEqualTo("rolled back " + xid + " on shard 2 (forced against the coordinator's"
                + " recorded decision)" + System.lineSeparator());
        assertThat(values(2, "SELECT COUNT(*) FROM app.acct WHERE id = 202")).containsExactly("0");
    }

    @Test
    @Order(5)
    void recoverSettlesWhatTheCoordinatorsDecidedAndCountsIt() throws Exception {
        String commits = "cleave:0:it:4:1";
        String rollsBack = "cleave:1:it:5:1";
        prepareBranch(1, commits, 103, "recovered");
        recordDecision(0, commits);
        prepareBranch(2, rollsBack, 203, "never");

        Cli recover = cli("xa", "recover");
        assertThat(recover.code()).as(recover.err()).isZero();
        assertThat(recover.out()).isEqualTo("recovery settled 2 branches" + System.lineSeparator()
                + "no in-doubt transactions left" + System.lineSeparator());
        assertThat(values(1, "SELECT v FROM app.acct WHERE id = 103")).containsExactly("recovered");
        assertThat(values(2, "SELECT COUNT(*) FROM app.acct WHERE id = 203")).containsExactly("0");
        assertThat(metric("cleave_proxy_xa_settled_total", "by=\"recovery\"", "decision=\"commit\"")).isEqualTo(1.0);
        assertThat(metric("cleave_proxy_xa_settled_total", "by=\"recovery\"", "decision=\"rollback\"")).isEqualTo(1.0);
        assertThat(metric("cleave_proxy_xa_in_doubt")).isZero();
    }

    @Test
    @Order(6)
    void transactionsAreCountedByKindAndOutcomeAndDistributedCommitsTimed() throws Exception {
        double singleCommits = transactions("single_shard", "commit");
        double singleRollbacks = transactions("single_shard", "rollback");
        double crossCommits = transactions("cross_shard", "commit");
        double autocommitWrites = transactions("multi_shard_autocommit", "commit");
        double timed = metric("cleave_proxy_distributed_commit_latency_seconds_count");
        try (Connection c = daemon.connectProxy("app", ""); Statement s = c.createStatement()) {
            s.execute("BEGIN");
            s.execute("INSERT INTO acct (id, v) VALUES (1, 'single')");
            s.execute("COMMIT");
            s.execute("BEGIN");
            s.execute("INSERT INTO acct (id, v) VALUES (2, 'undone')");
            s.execute("ROLLBACK");
            s.execute("BEGIN");
            s.execute("INSERT INTO acct (id, v) VALUES (3, 'cross')");
            s.execute("INSERT INTO acct (id, v) VALUES (104, 'cross')");
            s.execute("COMMIT");
            s.execute("INSERT INTO acct (id, v) VALUES (4, 'both'), (105, 'both')");
        }
        assertThat(values(0, "SELECT id FROM app.acct ORDER BY id")).containsExactly("1", "3", "4");
        assertThat(values(1, "SELECT id FROM app.acct WHERE id IN (104, 105) ORDER BY id")).containsExactly("104", "105");
        assertThat(transactions("single_shard", "commit") - singleCommits).isEqualTo(1.0);
        assertThat(transactions("single_shard", "rollback") - singleRollbacks).isEqualTo(1.0);
        assertThat(transactions("cross_shard", "commit") - crossCommits).isEqualTo(1.0);
        assertThat(transactions("multi_shard_autocommit", "commit") - autocommitWrites).isEqualTo(1.0);
        assertThat(metric("cleave_proxy_distributed_commit_latency_seconds_count") - timed).isEqualTo(2.0);
        assertThat(scrape()).contains("cleave_proxy_distributed_commit_latency_seconds_bucket{le=\"");
    }

    @Test
    @Order(7)
    void aBranchWhoseCoordinatorIsDownIsTheOperatorsCall() throws Exception {
        String xid = "cleave:2:it:6:1";
        prepareBranch(1, xid, 106, "orphan");
        recordDecision(2, xid);
        daemon.daemon().supervisors().get(2).stop(Duration.ofSeconds(30)).join();

        assertThat(cli("xa", "list").out()).containsPattern("(?m)^1\\s+2\\s+COORDINATOR_UNREACHABLE\\s+" + xid + "$");
        Cli recover = cli("xa", "recover");
        assertThat(recover.code()).as(recover.err()).isZero();
        assertThat(recover.out()).startsWith("recovery settled 0 branches" + System.lineSeparator() + "still in doubt:")
                .containsPattern("(?m)^1\\s+2\\s+COORDINATOR_UNREACHABLE\\s+" + xid + "$");
        assertThat(metric("cleave_proxy_xa_in_doubt")).isEqualTo(1.0);
        Cli status = cli("status");
        assertThat(status.code()).as("shard 2 is stopped").isEqualTo(ExitCodes.NOT_READY);
        assertThat(status.out()).contains("in-doubt transaction branches: 1")
                .contains("  shard 1: " + xid + " (coordinator shard 2, recovery: COORDINATOR_UNREACHABLE)");

        Cli rollback = cli("xa", "rollback", xid);
        assertThat(rollback.code()).as(rollback.err()).isZero();
        assertThat(rollback.out()).isEqualTo("rolled back " + xid + " on shard 1" + System.lineSeparator());
        assertThat(values(1, "SELECT COUNT(*) FROM app.acct WHERE id = 106")).containsExactly("0");
    }

    @Test
    @Order(8)
    void withoutAProxyTheApiAndTheCliSaySo() throws Exception {
        try (CleaveTestHome bare = CleaveTestHome.builder().shards(1).withoutProxy().create();
             RunningDaemon shardsOnly = bare.start()) {
            HttpResponse<String> api = shardsOnly.admin("GET", "/v1/xa", true);
            assertThat(api.statusCode()).isEqualTo(503);
            assertThat(JSON.readTree(api.body()).path("error").asText()).startsWith("the proxy is not running");
            Cli list = cli(bare, "xa", "list");
            assertThat(list.code()).isEqualTo(ExitCodes.NOT_READY);
            assertThat(list.err()).startsWith("error: the proxy is not running (not part of this build)");
            assertThat(cli(bare, "xa", "recover").code()).isEqualTo(ExitCodes.NOT_READY);
            assertThat(cli(bare, "status").out()).contains("in-doubt transactions: unknown (the proxy is not running)");
        }
    }

    // ---- helpers -------------------------------------------------------------------------------

    /** What an interrupted distributed commit leaves on a shard: a prepared branch, its session gone. */
    private void prepareBranch(int shard, String xid, int id, String value) throws SQLException {
        try (Connection c = daemon.connect(shard); Statement s = c.createStatement()) {
            s.execute("XA START '" + xid + "'");
            s.execute("INSERT INTO app.acct VALUES (" + id + ", '" + value + "')");
            s.execute("XA END '" + xid + "'");
            s.execute("XA PREPARE '" + xid + "'");
        }
    }

    /** The coordinator's commit decision, as a distributed commit records it. */
    private void recordDecision(int coordinator, String xid) throws SQLException {
        try (Connection c = daemon.connect(coordinator);
             PreparedStatement p = c.prepareStatement("INSERT INTO cleave.decisions (xid, shards) VALUES (?, '1,2')")) {
            p.setString(1, xid);
            p.executeUpdate();
        }
    }

    private List<String> values(int shard, String sql) throws SQLException {
        try (Connection c = daemon.connect(shard); Statement s = c.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            List<String> out = new ArrayList<>();
            while (rs.next()) {
                out.add(rs.getString(1));
            }
            return out;
        }
    }

    /** "shard xid coordinator decision" per branch of a JSON list. */
    private static List<String> branches(JsonNode list) {
        List<String> out = new ArrayList<>();
        for (JsonNode b : list) {
            out.add(b.path("shard").asInt() + " " + b.path("xid").asText() + " " + b.path("coordinator").asInt() + " "
                    + b.path("decision").asText());
        }
        return out;
    }

    private HttpResponse<String> post(String path, String body) throws Exception {
        return http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + daemon.adminPort() + path))
                .header("Authorization", "Bearer " + daemon.adminToken())
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String scrape() throws Exception {
        HttpResponse<String> r = daemon.admin("GET", "/metrics", false);
        assertThat(r.statusCode()).isEqualTo(200);
        return r.body();
    }

    private double transactions(String kind, String outcome) throws Exception {
        return metric("cleave_proxy_transactions_total", "kind=\"" + kind + "\"", "outcome=\"" + outcome + "\"");
    }

    /** The value of the one sample of {@code name} carrying every given label. */
    private double metric(String name, String... labels) throws Exception {
        List<Double> found = new ArrayList<>();
        for (String line : scrape().split("\n")) {
            if (!line.startsWith(name + "{") && !line.startsWith(name + " ")) {
                continue;
            }
            boolean all = true;
            for (String label : labels) {
                all &= line.contains(label);
            }
            if (all) {
                found.add(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
            }
        }
        assertThat(found).as("samples of %s with %s", name, List.of(labels)).hasSize(1);
        return found.get(0);
    }

    private record Cli(int code, String out, String err) {
    }

    private Cli cli(String... args) {
        return cli(home, args);
    }

    private static Cli cli(CleaveTestHome home, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine cmd = CleaveMain.commandLine();
        cmd.setOut(new PrintWriter(out, true));
        cmd.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.add("--home=" + home.root());
        return new Cli(cmd.execute(all.toArray(String[]::new)), out.toString(), err.toString());
    }
}
