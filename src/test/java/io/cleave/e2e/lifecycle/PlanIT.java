package io.cleave.e2e.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveJar.Result;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.manager.instance.ServerDefaults;
import io.cleave.manager.instance.ShardAccount;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code cleave plan} on this machine prints the plan without touching the home; {@code up} then runs
 * exactly it: every planned value is what each shard answers to {@code SELECT @@GLOBAL...}, each
 * runs on the CPUs the plan gave it, and the daemon's log has the plan.
 */
class PlanIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    /** Sections whose options the servers expose as global variables of the same name. */
    private static final Set<String> READ_BACK = Set.of("memory", "threads", "flash", "redo", "binlog", "ids", "charset");

    private static Result cleave(CleaveTestHome home, String... args) throws IOException, InterruptedException {
        return CleaveJar.run(home, args);
    }

    @Test
    void planPrintsAndUpAppliesIt() throws Exception {
        assertThat(CleaveJar.JAR).as("cleave.jar is built by 'mvn package'").exists();
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).bufferPoolPerShardMiB(512)
                .serverOption("innodb_io_capacity", "300").extraYaml("cpu_sets: auto").create()) {
            String config = "--config=" + home.configFile();
            Result text = cleave(home, "plan", config);
            assertThat(text.code()).as(text.out()).isZero();
            assertThat(text.out()).contains("2 shards of ", "\ndevices:\n", "\nevery shard:\n",
                    "shard-1: port " + (home.basePort() + 1) + ", buffer pool 512M",
                    "innodb_buffer_pool_size = 512M", "innodb_log_file_size = 128M", "a quarter of its 512M buffer pool",
                    "innodb_io_capacity = 300", "planned, but server.options sets it:", "character_set_server = utf8mb4");
            assertThat(home.root().resolve("etc")).as("plan changes nothing").doesNotExist();

            Result json = cleave(home, "plan", "--json", config);
            assertThat(json.code()).as(json.out()).isZero();
            JsonNode plan = JSON.readTree(json.out());
            assertThat(plan.path("instances")).hasSize(2);
            assertThat(plan.path("devices").get(0).path("kind").asText()).isIn("nvme", "ssd", "rotational", "unknown");

            Result up = cleave(home, "up", "--detach", config);
            assertThat(up.code()).as(up.out()).isZero();
            try {
                String log = Files.readString(home.root().resolve("logs/daemon.log"));
                assertThat(log).contains("plan:\n2 shards of ", "shard-0: the server runs its plan", "shard-1: the server runs its plan");
                String secret = Files.readString(home.home().shardSecretFile()).trim();
                for (int shard = 0; shard < 2; shard++) {
                    JsonNode instance = plan.path("instances").get(shard);
                    checkRuns(instance, home.basePort() + shard, secret);
                    long pid = home.serverPids().get(shard);
                    List<String> launch = new ArrayList<>();
                    instance.path("launch").forEach(n -> launch.add(n.asText()));
                    assertThat(launch).as("cpu_sets: auto pins the shard").isNotEmpty();
                    assertThat(cpusAllowed(pid)).as("shard-%d runs on the CPUs of its plan", shard)
                            .isEqualTo(instance.path("cpus").asText());
                    String cnf = Files.readString(Path.of(instance.path("cnf").asText()));
                    assertThat(cnf).contains("\ninnodb_log_file_size = 128M\n", "\ninnodb_io_capacity = 300\n")
                            .doesNotContain("innodb_adaptive_flushing").containsOnlyOnce("innodb_io_capacity =");
                }
            } finally {
                Result down = cleave(home, "down");
                assertThat(down.code()).as(down.out()).isZero();
            }
        }
    }

    /** Every value the plan wrote or left at the server's default is what the shard runs. */
    private static void checkRuns(JsonNode instance, int port, String secret) throws Exception {
        List<JsonNode> checked = new ArrayList<>();
        for (JsonNode s : instance.path("settings")) {
            String outcome = s.path("outcome").asText();
            if (READ_BACK.contains(s.path("group").asText()) && (outcome.equals("written") || outcome.equals("server_default"))
                    && !s.path("option").asText().equals("log_bin") && !s.path("option").asText().equals("innodb_log_group_home_dir")) {
                checked.add(s);
            }
            if (outcome.equals("from_options")) {
                checked.add(s);
            }
        }
        assertThat(checked).extracting(s -> s.path("option").asText())
                .contains("innodb_buffer_pool_size", "innodb_io_capacity", "innodb_io_capacity_max", "innodb_flush_neighbors",
                        "innodb_read_io_threads", "innodb_write_io_threads", "innodb_log_file_size", "innodb_doublewrite",
                        "character_set_server", "binlog_format", "auto_increment_increment");
        try (Connection c = DriverManager.getConnection("jdbc:mysql://127.0.0.1:" + port + "/?sslMode=PREFERRED&allowPublicKeyRetrieval=true",
                ShardAccount.USER, secret); Statement st = c.createStatement()) {
            for (JsonNode s : checked) {
                String option = s.path("option").asText();
                try (ResultSet rs = st.executeQuery("SELECT @@GLOBAL." + option)) {
                    rs.next();
                    String runs = rs.getString(1);
                    assertThat(ServerDefaults.sameValue(runs, s.path("value").asText()))
                            .as("%s on port %d: planned %s (%s), the server runs %s", option, port, s.path("value").asText(),
                                    s.path("outcome").asText(), runs).isTrue();
                }
            }
        }
    }

    private static String cpusAllowed(long pid) throws IOException {
        return Files.readAllLines(Path.of("/proc/" + pid + "/status")).stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
                .map(l -> l.substring(l.indexOf(':') + 1).trim()).findFirst().orElseThrow();
    }

    @Test
    void aPlanThatCannotWorkIsRefusedWithWhatToChange() throws Exception {
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).bufferPoolPerShardMiB(4 * 1024 * 1024).create()) {
            Result plan = cleave(home, "plan", "--config=" + home.configFile());
            assertThat(plan.code()).as(plan.out()).isEqualTo(3);
            assertThat(plan.out()).contains("error: the plan for " + home.configFile() + " cannot work:",
                    "buffer_pool 8T is more than this host's", "lower buffer_pool");
            Result up = cleave(home, "up", "--detach", "--config=" + home.configFile());
            assertThat(up.code()).as("up refuses the same plan: " + up.out()).isEqualTo(3);
            assertThat(up.out()).contains("buffer_pool 8T is more than this host's");
            assertThat(home.serverPids()).isEmpty();
        }
    }
}
