package io.cleave.e2e.clients;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.CommandLine;
import io.cleave.e2e.support.RunningDaemon;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clients as a new user runs them, unmodified, against four shards with a hashed table, a
 * reference table and an unsharded one: PyMySQL and mysqlclient with their defaults (autocommit
 * off; scripts/python-drivers installs them), go-sql-driver/mysql and Node's mysql2 (built by the
 * test where Go and npm exist, skipped with the reason where they or their packages do not), the
 * mariadb client, and a mariadb-dump round trip with the tool's default options and with
 * --single-transaction. One daemon for the class.
 */
class ClientDefaultsIT {

    private static final String SHARDING = """
            sharding:
              keyspaces:
                - { name: ks, function: hash, buckets: 64, key_type: integer }
              tables:
                - { name: items, keyspace: ks, column: id }
                - { name: orders, keyspace: ks, column: id }
                - { name: ref, type: reference }
                - { name: uns, type: unsharded, shard: 1 }
            """;

    private static CleaveTestHome home;
    private static RunningDaemon daemon;

    @BeforeAll
    static void start() {
        home = CleaveTestHome.builder().shards(4).extraYaml(SHARDING).create();
        daemon = home.start();
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

    @Test
    void pyMySqlWithItsDefaults() throws Exception {
        pythonDriver("pymysql", "py_pymysql");
    }

    @Test
    void mysqlclientWithItsDefaults() throws Exception {
        pythonDriver("MySQLdb", "py_mysqlclient");
    }

    @Test
    void goSqlDriverWithServerSidePreparedStatements() throws Exception {
        Path dir = copyResources("go", "go.mod", "go.sum", "main.go");
        Assumptions.assumeTrue(onPath("go"), "no Go toolchain on PATH");
        CommandLine.Result download = CommandLine.run(List.of("bash", "-c", "cd " + dir + " && go mod download"), 300);
        Assumptions.assumeTrue(download.exitCode() == 0, "go-sql-driver/mysql could not be downloaded: "
                + download.stderr().strip());
        CommandLine.Result build = CommandLine.run(List.of("bash", "-c", "cd " + dir + " && go build -o check ."), 300);
        assertThat(build.exitCode()).as(build.stderr()).isZero();
        CommandLine.Result r = CommandLine.run(List.of(dir.resolve("check").toString(),
                String.valueOf(daemon.proxyPort()), "go_driver"), 120);
        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("OK\n");
    }

    @Test
    void nodeMysql2WithExecute() throws Exception {
        Path dir = copyResources("node", "package.json", "package-lock.json", "check.js");
        Assumptions.assumeTrue(onPath("node") && onPath("npm"), "no Node.js and npm on PATH");
        CommandLine.Result install = CommandLine.run(List.of("bash", "-c", "cd " + dir
                + " && npm ci --no-audit --no-fund --loglevel=error"), 300);
        Assumptions.assumeTrue(install.exitCode() == 0, "mysql2 could not be installed: " + install.stderr().strip());
        CommandLine.Result r = CommandLine.run(List.of("node", dir.resolve("check.js").toString(),
                String.valueOf(daemon.proxyPort()), "node_driver"), 120);
        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("OK\n");
    }

    /** The named files of the test resources' clients/{@code folder}, in a fresh directory of the test home. */
    private static Path copyResources(String folder, String... files) throws Exception {
        Path dir = Files.createTempDirectory(home.root(), folder);
        for (String f : files) {
            try (var in = ClientDefaultsIT.class.getResourceAsStream("/clients/" + folder + "/" + f)) {
                Files.copy(in, dir.resolve(f));
            }
        }
        return dir;
    }

    private static boolean onPath(String program) {
        return CommandLine.onPath(program) != null;
    }

    private void pythonDriver(String module, String database) throws Exception {
        CommandLine.Result has = CommandLine.run(List.of("python3", "-c", "import " + module), 30);
        Assumptions.assumeTrue(has.exitCode() == 0, module + " is not installed (scripts/python-drivers installs it;"
                + " it could not here): " + has.stderr().strip());
        Path script = Path.of(getClass().getResource("/clients/python_driver_check.py").toURI());
        CommandLine.Result r = CommandLine.run(List.of("python3", script.toString(), module,
                String.valueOf(daemon.proxyPort()), database), 120);
        assertThat(r.exitCode()).as(r.stdout() + r.stderr()).isZero();
        assertThat(r.stdout()).isEqualTo("OK\n");
    }

    @Test
    void aDumpOfAShardedDatabaseRestoresToIdenticalTables() throws Exception {
        mysql("", "DROP DATABASE IF EXISTS shop; CREATE DATABASE shop; USE shop;"
                + " CREATE TABLE orders (id INT AUTO_INCREMENT PRIMARY KEY, cust INT, note VARCHAR(50), at DATETIME(6));"
                + " CREATE TABLE ref (id INT PRIMARY KEY, name VARCHAR(20));"
                + " CREATE TABLE uns (id INT AUTO_INCREMENT PRIMARY KEY, v TEXT);"
                + " INSERT INTO orders (id, cust, note, at) VALUES " + values(200) + ";"
                + " INSERT INTO ref VALUES (1, 'one'), (2, 'two');"
                + " INSERT INTO uns (v) VALUES ('a'), ('b\\'q'), (NULL);");
        String before = checksums();
        for (List<String> options : List.of(List.<String>of(), List.of("--single-transaction"))) {
            List<String> dump = new ArrayList<>(List.of(CommandLine.require("mariadb-dump", "mariadb-client"),
                    "--no-defaults", "--protocol=TCP", "-h127.0.0.1", "-P" + daemon.proxyPort(), "-uroot"));
            dump.addAll(options);
            dump.add("shop");
            CommandLine.Result dumped = CommandLine.run(dump, 120);
            assertThat(dumped.exitCode()).as(options + ": " + dumped.stderr()).isZero();
            Path file = Files.createTempFile(home.root(), "shop", ".sql");
            Files.writeString(file, dumped.stdout());
            mysql("", "DROP DATABASE shop; CREATE DATABASE shop");
            CommandLine.Result restored = CommandLine.run(List.of("bash", "-c", "mariadb --no-defaults --protocol=TCP"
                    + " -h127.0.0.1 -P" + daemon.proxyPort() + " -uroot shop < " + file), 120);
            assertThat(restored.exitCode()).as(options + ": " + restored.stderr()).isZero();
            assertThat(checksums()).as(options.toString()).isEqualTo(before);
        }
    }

    @Test
    void theClientSeesItsOwnUserAndTlsSession() throws Exception {
        CommandLine.Result r = CommandLine.mariadb(daemon.proxyPort(), "root", "", List.of("--ssl", "--skip-column-names"),
                "SELECT USER(); SELECT CURRENT_USER(); SHOW STATUS LIKE 'Ssl_cipher'; SHOW STATUS LIKE 'Ssl_version'");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        assertThat(r.stdout()).startsWith("root@127.0.0.1\nroot@127.0.0.0/255.0.0.0\nSsl_cipher\tTLS_")
                .containsPattern("Ssl_version\tTLSv1\\.[23]\n");
        CommandLine.Result missing = CommandLine.mariadb(daemon.proxyPort(), "root", "", List.of("--skip-ssl",
                "no_such_db"), "SELECT 1");
        assertThat(missing.exitCode()).isNotZero();
        assertThat(missing.stderr()).contains("ERROR 1049 (42000)").contains("Unknown database 'no_such_db'");
    }

    private static String values(int n) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= n; i++) {
            sb.append(i > 1 ? "," : "").append("(").append(i).append(", ").append(i % 7).append(", 'note ").append(i)
                    .append(" ✓', '2024-01-02 03:04:05.").append(100000 + i).append("')");
        }
        return sb.toString();
    }

    /** Row counts and checksums of the three tables, read through the proxy. */
    private static String checksums() throws Exception {
        CommandLine.Result r = mysql("shop", "SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', id, cust, note, at))) FROM orders;"
                + " SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', id, name))) FROM ref;"
                + " SELECT COUNT(*), SUM(CRC32(CONCAT_WS('|', id, v))) FROM uns");
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        return r.stdout();
    }

    private static CommandLine.Result mysql(String database, String sql) throws Exception {
        List<String> extra = new ArrayList<>(List.of("--skip-ssl", "--default-character-set=utf8mb4", "--skip-column-names"));
        if (!database.isEmpty()) {
            extra.add(database);
        }
        CommandLine.Result r = CommandLine.mariadb(daemon.proxyPort(), "root", "", extra, sql);
        assertThat(r.exitCode()).as(r.stderr()).isZero();
        return r;
    }
}
