package io.cleave.e2e.lifecycle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.cleave.e2e.support.CleaveJar;
import io.cleave.e2e.support.CleaveJar.Result;
import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.manager.home.DaemonInfo;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The shipped jar as an operator runs it, in separate processes: {@code up --detach}, {@code status},
 * a daemon killed with SIGKILL whose instances are adopted by the next {@code up}, {@code down};
 * and a foreground {@code up} stopped with SIGTERM.
 */
class CliLifecycleIT {

    private static final Path JAR = CleaveJar.JAR;
    private static final ObjectMapper JSON = new ObjectMapper();

    private static Result cleave(CleaveTestHome home, String... args) throws IOException, InterruptedException {
        return CleaveJar.run(home, args);
    }

    private static String javaBin() {
        return CleaveJar.javaBin();
    }

    @Test
    void detachedDaemonKilledThenAdoptedThenDown() throws Exception {
        assertThat(JAR).as("cleave.jar is built by 'mvn package'").exists();
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).create()) {
            String config = "--config=" + home.configFile();
            Result up = cleave(home, "up", "--detach", config);
            assertThat(up.code()).as(up.out()).isZero();
            assertThat(up.out()).contains("runs in the background").contains("shard-1   RUNNING");

            Result status = cleave(home, "status", "--json");
            assertThat(status.code()).as(status.out()).isZero();
            JsonNode report = JSON.readTree(status.out());
            assertThat(report.path("ready").asBoolean()).isTrue();
            List<Long> pids = List.of(report.path("instances").get(0).path("pid").asLong(),
                    report.path("instances").get(1).path("pid").asLong());
            assertThat(home.serverPids().values()).containsExactlyElementsOf(pids);

            Result table = cleave(home, "status");
            assertThat(table.out()).contains("INSTANCE").contains("shard-0   RUNNING").contains(home.root() + "/data/shard-1");

            long daemonPid = DaemonInfo.read(home.home()).orElseThrow().pid();
            ProcessHandle daemon = ProcessHandle.of(daemonPid).orElseThrow();
            daemon.destroyForcibly();
            daemon.onExit().get(30, TimeUnit.SECONDS);
            assertThat(home.serverPids().values()).as("instances outlive a killed daemon").containsExactlyElementsOf(pids);
            Result noDaemon = cleave(home, "status");
            assertThat(noDaemon.code()).isEqualTo(4);
            assertThat(noDaemon.out()).contains("no cleave daemon is running for home " + home.root());

            Result again = cleave(home, "up", "--detach", config);
            assertThat(again.code()).as(again.out()).isZero();
            JsonNode adopted = JSON.readTree(cleave(home, "status", "--json").out());
            assertThat(adopted.path("instances").get(0).path("pid").asLong()).isEqualTo(pids.get(0));
            assertThat(adopted.path("instances").get(1).path("pid").asLong()).isEqualTo(pids.get(1));
            assertThat(adopted.path("instances").get(0).path("adopted").asBoolean()).isTrue();
            assertThat(Files.readString(home.root().resolve("logs/daemon.log"))).contains("adopting running server pid " + pids.get(0));

            Result down = cleave(home, "down");
            assertThat(down.code()).as(down.out()).isZero();
            assertThat(down.out()).contains("stopped the cleave daemon");
            assertThat(home.serverPids()).isEmpty();
            assertThat(home.home().daemonInfoFile()).doesNotExist();
        }
    }

    @Test
    void foregroundDaemonStopsEverythingOnSigterm() throws Exception {
        try (CleaveTestHome home = CleaveTestHome.builder().shards(2).create()) {
            Path log = home.root().resolve("foreground.log");
            Process up = new ProcessBuilder(javaBin(), "-jar", JAR.toString(), "up", "--home=" + home.root(),
                    "--config=" + home.configFile()).redirectErrorStream(true).redirectOutput(log.toFile()).start();
            try {
                long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(3);
                while (!Files.readString(log).contains("all 2 instances ready") && System.nanoTime() < deadline) {
                    assertThat(up.isAlive()).as(Files.readString(log)).isTrue();
                    Thread.sleep(100);
                }
                assertThat(home.serverPids()).hasSize(2);
                up.destroy(); // SIGTERM
                assertThat(up.waitFor(2, TimeUnit.MINUTES)).isTrue();
                assertThat(home.serverPids()).as("SIGTERM leaves no server behind").isEmpty();
                assertThat(Files.readString(log)).contains("shard-0: stopped").contains("shard-1: stopped").contains("daemon stopped");
            } finally {
                up.destroyForcibly();
            }
        }
    }
}
