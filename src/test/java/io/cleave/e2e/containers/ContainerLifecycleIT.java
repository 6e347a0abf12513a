package io.cleave.e2e.containers;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.testcontainers.DockerClientFactory;
import org.testcontainers.containers.Container;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.containers.wait.strategy.Wait;
import org.testcontainers.utility.DockerImageName;
import org.testcontainers.utility.MountableFile;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lifecycle against MySQL 8.4 and Percona Server 8: cleave.jar (with this JVM copied in) runs
 * inside the vendor's image with server.binary pointing at its mysqld, so initialization
 * (--initialize-insecure), my.cnf rendering, account creation, crash restart and shutdown are
 * those of that flavour. Needs a Docker engine; without one the tests are skipped, saying so.
 */
class ContainerLifecycleIT {

    private static final Path JAR = Path.of(System.getProperty("cleave.jar", "../manager/target/cleave.jar"));
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String CONFIG = """
            shards: 2
            server:
              binary: /usr/sbin/mysqld
            buffer_pool: 256M
            proxy:
              users:
                - name: root
                  password: ""
            """;

    private static boolean docker;

    @BeforeAll
    static void lookForDocker() {
        try {
            docker = DockerClientFactory.instance().isDockerAvailable();
        } catch (RuntimeException e) {
            docker = false;
        }
    }

    @BeforeEach
    void needsDocker() {
        Assumptions.assumeTrue(docker, "no Docker engine: the MySQL 8.4 and Percona Server lifecycle tests need one");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({"mysql:8.4, MySQL", "percona/percona-server:8.0, Percona Server", "percona/percona-server:8.4, Percona Server"})
    void lifecycleInsideTheVendorImage(String image, String flavour) throws Exception {
        try (GenericContainer<?> c = new GenericContainer<>(DockerImageName.parse(image))
                .withCopyFileToContainer(MountableFile.forHostPath(System.getProperty("java.home")), "/opt/java")
                .withCopyFileToContainer(MountableFile.forHostPath(JAR), "/opt/cleave/cleave.jar")
                .withCopyToContainer(org.testcontainers.images.builder.Transferable.of(CONFIG), "/opt/cleave/cleave.yaml")
                .withCreateContainerCmdModifier(cmd -> cmd.withUser("root").withEntrypoint("/opt/java/bin/java"))
                .withCommand("-jar", "/opt/cleave/cleave.jar", "up", "--home=/var/lib/cleave", "--config=/opt/cleave/cleave.yaml")
                .waitingFor(Wait.forLogMessage(".*all 2 instances ready.*", 1).withStartupTimeout(Duration.ofMinutes(10)))) {
            c.start();
            JsonNode status = status(c);
            assertThat(status.path("ready").asBoolean()).isTrue();
            assertThat(status.path("serverBinary").asText()).startsWith(flavour);
            long pid = status.path("instances").get(1).path("pid").asLong();

            assertThat(c.execInContainer("kill", "-9", Long.toString(pid)).getExitCode()).isZero();
            JsonNode after = status(c);
            for (int i = 0; i < 600 && !(after.path("instances").get(1).path("state").asText().equals("RUNNING")
                    && after.path("instances").get(1).path("pid").asLong() != pid); i++) {
                Thread.sleep(100);
                after = status(c);
            }
            assertThat(after.path("instances").get(1).path("state").asText()).isEqualTo("RUNNING");
            assertThat(after.path("instances").get(1).path("restarts").asInt()).isEqualTo(1);

            Container.ExecResult down = c.execInContainer("/opt/java/bin/java", "-jar", "/opt/cleave/cleave.jar", "down",
                    "--home=/var/lib/cleave");
            assertThat(down.getExitCode()).as(down.getStdout() + down.getStderr()).isZero();
            Container.ExecResult sockets = c.execInContainer("sh", "-c", "ls /var/lib/cleave/run | grep -c sock || true");
            assertThat(sockets.getStdout().trim()).isEqualTo("0");
        }
    }

    private static JsonNode status(GenericContainer<?> c) throws Exception {
        Container.ExecResult r = c.execInContainer("/opt/java/bin/java", "-jar", "/opt/cleave/cleave.jar", "status", "--json",
                "--home=/var/lib/cleave");
        return JSON.readTree(r.getStdout());
    }
}
