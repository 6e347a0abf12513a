package io.cleave.manager.config;

import io.cleave.proxy.tls.SelfSignedCertificate;
import io.cleave.router.keyspace.RangeShardFunction;
import io.cleave.router.topology.TableRule;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ConfigLoaderTest {

    private static final Path SAMPLES = Path.of("..", "config");
    private static final Path FILE = Path.of("/etc/cleave/test.yaml");

    @ParameterizedTest
    @ValueSource(strings = {"config/cleave.yaml", "config/tpcc.yaml", "config/sysbench.yaml", "config/single.yaml",
            "docker/cleave.yaml"})
    void everySampleConfigLoads(String name) {
        CleaveConfig config = ConfigLoader.load(Path.of("..").resolve(name));
        assertThat(config.shards()).isPositive();
        assertThat(config.proxy().users()).isNotEmpty();
    }

    @Test
    void quickstartHasFourShardsAndAnEmptyRootPasswordOnLoopback() {
        CleaveConfig config = ConfigLoader.load(SAMPLES.resolve("cleave.yaml"));
        assertThat(config.shards()).isEqualTo(4);
        assertThat(config.bufferPoolPerShard()).isEqualTo(256L << 20);
        assertThat(config.server().binary()).isEqualTo(new ServerChoice.Auto());
        assertThat(config.proxy().listen()).isEqualTo(new HostPort("127.0.0.1", 6033));
        assertThat(config.adminPort()).isEqualTo(6034);
        assertThat(config.proxy().users()).singleElement()
                .satisfies(u -> assertThat(u.name()).isEqualTo("root"))
                .satisfies(u -> assertThat(u.hasEmptyPassword()).isTrue());
    }

    @Test
    void serverBinaryIsAutoEmbeddedOrAnExecutablePath() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\nserver:\n  binary: ";
        assertThat(ConfigLoader.parse(FILE, base + "embedded\n").server().binary()).isEqualTo(new ServerChoice.Embedded());
        assertThat(ConfigLoader.parse(FILE, base + "auto\n").server().binary()).isEqualTo(new ServerChoice.Auto());
        assertThat(ConfigLoader.parse(FILE, base + "/bin/sh\n").server().binary())
                .isEqualTo(new ServerChoice.Configured(Path.of("/bin/sh")));
        assertThat(catchConfig(base + "/no/such/mariadbd\n").getMessage())
                .contains("server.binary", "/no/such/mariadbd is not an executable file", "'auto', 'embedded' or the path");
    }

    @Test
    void xaRecoveryRunsEveryThirtySecondsUnlessConfigured() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(ConfigLoader.parse(FILE, base).proxy().xaRecoveryInterval()).isEqualTo(java.time.Duration.ofSeconds(30));
        assertThat(ConfigLoader.parse(FILE, base + "  xa_recovery_interval_s: 0\n").proxy().xaRecoveryInterval())
                .isZero();
        assertThat(catchConfig(base + "  xa_recovery_interval_s: -1\n").getMessage())
                .contains("xa_recovery_interval_s");
    }

    @Test
    void clientLimitsDefaultToWhatAServerPicks() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        ProxyConfig proxy = ConfigLoader.parse(FILE, base).proxy();
        assertThat(proxy.maxAllowedPacket()).isEqualTo(64L << 20);
        assertThat(proxy.login()).isEqualTo(new LoginConfig(java.time.Duration.ofSeconds(10), 64L << 10, 3,
                java.time.Duration.ofSeconds(1), java.time.Duration.ofSeconds(30)));
        ProxyConfig set = ConfigLoader.parse(FILE, base + """
                  max_allowed_packet: 1M
                  connect_timeout_s: 2
                  max_login_packet: 8K
                  failed_logins_before_delay: 0
                  failed_login_delay_ms: 0
                  failed_login_max_delay_ms: 0
                """).proxy();
        assertThat(set.maxAllowedPacket()).isEqualTo(1L << 20);
        assertThat(set.login()).isEqualTo(new LoginConfig(java.time.Duration.ofSeconds(2), 8L << 10, 0,
                java.time.Duration.ZERO, java.time.Duration.ZERO));
    }

    @Test
    void pipeliningIsOffUnlessADepthIsGiven() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(ConfigLoader.parse(FILE, base).proxy().pipelineDepth()).isEqualTo(1);
        assertThat(ConfigLoader.parse(FILE, base + "  pipeline_depth: 8\n").proxy().pipelineDepth()).isEqualTo(8);
        assertThat(catchConfig(base + "  pipeline_depth: 0\n").getMessage())
                .contains("proxy.pipeline_depth: 0 is out of range: expected 1..256");
    }

    @Test
    void proxyProtocolHeadersAreTakenOnlyFromTheListedNetworks() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(ConfigLoader.parse(FILE, base).proxy().clientProxyProtocol().trusted().isEmpty()).isTrue();
        var policy = ConfigLoader.parse(FILE, base + "  proxy_protocol_networks: \"10.0.0.0/8, ::1, localhost\"\n"
                + "  proxy_protocol_required: true\n").proxy().clientProxyProtocol();
        assertThat(policy.trusted().trusts(new java.net.InetSocketAddress("10.3.4.5", 1))).isTrue();
        assertThat(policy.trusted().trusts(new java.net.InetSocketAddress("11.3.4.5", 1))).isFalse();
        assertThat(policy.required()).isTrue();
        assertThat(catchConfig(base + "  proxy_protocol_networks: \"10.0.0.0/8, haproxy-host\"\n").getMessage())
                .contains("proxy.proxy_protocol_networks: 'haproxy-host' is not an IP address or network");
        assertThat(catchConfig(base + "  proxy_protocol_required: true\n").getMessage())
                .contains("proxy.proxy_protocol_required: requires a header from the networks");
    }

    @Test
    void consistentCutsAreOnUnlessSwitchedOffForTests() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(ConfigLoader.parse(FILE, base).proxy().consistentCuts()).isTrue();
        assertThat(ConfigLoader.parse(FILE, base + "  consistent_cuts: false\n").proxy().consistentCuts()).isFalse();
        assertThat(catchConfig(base + "  consistent_cuts: sometimes\n").getMessage())
                .contains("proxy.consistent_cuts: 'sometimes' is not a boolean: expected true or false");
    }

    @Test
    void shardServerIdsStartAtAThousandUnlessAStandbyTakesAnotherBase() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(ConfigLoader.parse(FILE, base).server().serverIdBase()).isEqualTo(1000);
        assertThat(ConfigLoader.parse(FILE, base + "server:\n  server_id_base: 2000\n").server().serverIdBase())
                .isEqualTo(2000);
        assertThat(catchConfig(base + "server:\n  server_id_base: 0\n").getMessage()).contains("server.server_id_base");
    }

    @Test
    void aStandbysConfigNamesItsPrimaryTokenFileAndSeedLocationTogether() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(ConfigLoader.parse(FILE, base).standby()).isEmpty();
        StandbySource s = ConfigLoader.parse(FILE, base + "standby:\n  primary: http://10.0.0.1:6034\n"
                + "  primary_token_file: a-token\n  via: /shared/seed\n").standby().orElseThrow();
        assertThat(s.primary()).isEqualTo("http://10.0.0.1:6034");
        assertThat(s.primaryTokenFile()).isEqualTo(FILE.toAbsolutePath().getParent().resolve("a-token").normalize());
        assertThat(s.via()).isEqualTo("/shared/seed");
        assertThat(catchConfig(base + "standby:\n  primary: http://10.0.0.1:6034\n").getMessage())
                .contains("standby", "names primary", "primary_token_file", "via");
        assertThat(catchConfig(base + "standby:\n  primary: 10.0.0.1:6034\n  primary_token_file: t\n  via: /x\n")
                .getMessage()).contains("standby.primary", "is not an admin URL");
        assertThat(catchConfig(base + "standby:\n  primry: x\n").getMessage()).contains("standby.primry");
    }

    @Test
    void clientLimitsOutOfRangeNameTheirField() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(catchConfig(base + "  max_allowed_packet: 2G\n").getMessage())
                .contains("proxy.max_allowed_packet: 2G is out of range: expected 1K..1G");
        assertThat(catchConfig(base + "  max_login_packet: 100\n").getMessage())
                .contains("proxy.max_login_packet: 100 is out of range: expected 1K..16M");
        assertThat(catchConfig(base + "  connect_timeout_s: 0\n").getMessage())
                .contains("proxy.connect_timeout_s: 0 is out of range");
        assertThat(catchConfig(base + "  failed_login_delay_ms: 500\n  failed_login_max_delay_ms: 100\n").getMessage())
                .contains("proxy.failed_login_max_delay_ms: 100 is below failed_login_delay_ms (500)");
    }

    @Test
    void theTransportIsAutoUnlessNamedAndOnlyKnownNamesPass() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(ConfigLoader.parse(FILE, base).proxy().transport())
                .isEqualTo(io.cleave.proxy.transport.TransportSetting.AUTO);
        assertThat(ConfigLoader.parse(FILE, base + "  transport: io_uring\n").proxy().transport())
                .isEqualTo(io.cleave.proxy.transport.TransportSetting.IO_URING);
        assertThat(catchConfig(base + "  transport: uring\n").getMessage())
                .contains("proxy.transport: 'uring' is not a transport: expected one of auto, epoll, io_uring, nio");
    }

    @Test
    void deadlocksAcrossShardsAreLookedForAfterATenthOfASecondUnlessConfigured() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(ConfigLoader.parse(FILE, base).proxy().deadlockCheckAfter()).isEqualTo(java.time.Duration.ofMillis(100));
        assertThat(ConfigLoader.parse(FILE, base + "  deadlock_check_after_ms: 250\n").proxy().deadlockCheckAfter())
                .isEqualTo(java.time.Duration.ofMillis(250));
        assertThat(ConfigLoader.parse(FILE, base + "  deadlock_check_after_ms: 0\n").proxy().deadlockCheckAfter())
                .isZero();
        assertThat(catchConfig(base + "  deadlock_check_after_ms: -5\n").getMessage())
                .contains("deadlock_check_after_ms");
    }

    @Test
    void tpccMapsWarehouseRangesOntoShardsWithAnOpenEnd() {
        CleaveConfig config = ConfigLoader.load(SAMPLES.resolve("tpcc.yaml"));
        var topology = config.sharding().topology();
        var ranges = ((RangeShardFunction) topology.keyspace("warehouse").function()).ranges();
        assertThat(ranges).hasSize(4);
        assertThat(ranges.get(3).from()).isEqualTo(76);
        assertThat(ranges.get(3).to()).isEqualTo(Long.MAX_VALUE);
        assertThat(config.sharding().explicitAssignments().get("warehouse")).containsExactly(0, 1, 2, 3);
        assertThat(topology.tables()).hasSize(9);
        assertThat(topology.ruleFor("ORDER_LINE")).isEqualTo(new TableRule.Sharded("order_line", "warehouse", "ol_w_id"));
        assertThat(topology.ruleFor("item")).isInstanceOf(TableRule.Reference.class);
    }

    @Test
    void sysbenchHashesSixteenTables() {
        CleaveConfig config = ConfigLoader.load(SAMPLES.resolve("sysbench.yaml"));
        assertThat(config.sharding().topology().keyspace("sbtest").function().bucketCount()).isEqualTo(256);
        assertThat(config.sharding().explicitAssignments()).isEmpty();
        assertThat(config.sharding().topology().tables()).hasSize(16);
    }

    @Test
    void singleHasNoKeyspacesAndEveryTableOnShardZero() {
        CleaveConfig config = ConfigLoader.load(SAMPLES.resolve("single.yaml"));
        assertThat(config.shards()).isEqualTo(1);
        assertThat(config.sharding().topology().ruleFor("anything")).isEqualTo(new TableRule.Unsharded("anything", 0));
    }

    @Test
    void backupSectionResolvesADirectoryAndRefusesArchivingWithoutALocation() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        CleaveConfig config = ConfigLoader.parse(FILE, base + "backup:\n  location: backups\n  archive_binlogs: true\n"
                + "  cut_interval_s: 2\n");
        assertThat(config.backup().location()).contains("/etc/cleave/backups");
        assertThat(config.backup().archiveBinlogs()).isTrue();
        assertThat(config.backup().cutInterval()).isEqualTo(java.time.Duration.ofSeconds(2));
        assertThat(ConfigLoader.parse(FILE, base).backup().archiveBinlogs()).isFalse();
        assertThat(catchConfig(base + "backup:\n  archive_binlogs: true\n").getMessage()).contains("archive_binlogs")
                .contains("needs backup.location");
        assertThat(catchConfig(base + "backup:\n  location: \"s3://\"\n").getMessage()).contains("names no bucket");
    }

    @Test
    void backupEngineDefaultsToAutoAndRefusesAnUnknownOne() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(ConfigLoader.parse(FILE, base).backup().engine()).isEqualTo(BackupEngine.AUTO);
        assertThat(ConfigLoader.parse(FILE, base + "backup:\n  engine: Physical\n").backup().engine())
                .isEqualTo(BackupEngine.PHYSICAL);
        assertThat(catchConfig(base + "backup:\n  engine: xtrabackup\n").getMessage()).contains("backup.engine")
                .contains("'xtrabackup' is not an engine: expected auto, physical or logical");
    }

    @Test
    void coordinationNamesEtcdsMembersTheClusterAndTheLease() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(ConfigLoader.parse(FILE, base).coordination()).isEmpty();
        CoordinationConfig c = ConfigLoader.parse(FILE, base + "coordination:\n  etcd: [http://10.0.0.1:2379,"
                + " http://10.0.0.2:2379, http://10.0.0.3:2379]\n  cluster: orders\n  lease_s: 3\n  rejoin: auto\n")
                .coordination().orElseThrow();
        assertThat(c.rejoin()).isEqualTo(CoordinationConfig.Rejoin.AUTO);
        assertThat(c.etcd()).containsExactly("http://10.0.0.1:2379", "http://10.0.0.2:2379", "http://10.0.0.3:2379");
        assertThat(c.cluster()).isEqualTo("orders");
        assertThat(c.lease()).isEqualTo(java.time.Duration.ofSeconds(3));
        CoordinationConfig defaults = ConfigLoader.parse(FILE, base + "coordination:\n  etcd: [http://e:2379]\n")
                .coordination().orElseThrow();
        assertThat(defaults.cluster()).isEqualTo("cleave");
        assertThat(defaults.lease()).isEqualTo(java.time.Duration.ofSeconds(CoordinationConfig.DEFAULT_LEASE_SECONDS));
        assertThat(defaults.rejoin()).isEqualTo(CoordinationConfig.Rejoin.MANUAL);
        assertThat(catchConfig(base + "coordination:\n  etcd: [http://e:2379]\n  rejoin: always\n").getMessage())
                .contains("coordination.rejoin", "'always' is not a way to rejoin: expected manual");
        assertThat(catchConfig(base + "coordination:\n  cluster: orders\n").getMessage()).contains("coordination.etcd");
        assertThat(catchConfig(base + "coordination:\n  etcd: [10.0.0.1:2379]\n").getMessage())
                .contains("coordination.etcd", "not an etcd client URL");
        assertThat(catchConfig(base + "coordination:\n  etcd: [http://e:2379]\n  lease_s: 1\n").getMessage())
                .contains("coordination.lease_s");
        assertThat(catchConfig(base + "coordination:\n  etcd: [http://e:2379]\n  cluster: a/b\n").getMessage())
                .contains("coordination.cluster");
    }

    @Test
    void httpsEtcdTakesACaAndAClientCertificateResolvedAgainstTheConfigsDirectory(@TempDir Path dir) throws Exception {
        Files.createDirectories(dir.resolve("etcd"));
        SelfSignedCertificate.create(dir.resolve("etcd/ca.pem"), dir.resolve("etcd/ca-key.pem"), "ca", List.of());
        SelfSignedCertificate.create(dir.resolve("etcd/client.pem"), dir.resolve("etcd/client-key.pem"), "cleave",
                List.of());
        Path file = dir.resolve("cleave.yaml");
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\ncoordination:\n";
        CoordinationConfig c = ConfigLoader.parse(file, base + "  etcd: [https://127.0.0.1:2379, https://127.0.0.1:2479]\n"
                + "  ca_file: etcd/ca.pem\n  cert_file: etcd/client.pem\n  key_file: " + dir.resolve("etcd/client-key.pem")
                + "\n").coordination().orElseThrow();
        assertThat(c.https()).isTrue();
        assertThat(c.tls()).isEqualTo(new EtcdTls(Optional.of(dir.resolve("etcd/ca.pem")),
                Optional.of(dir.resolve("etcd/client.pem")), Optional.of(dir.resolve("etcd/client-key.pem"))));
        assertThat(c.tls().presentsClientCertificate()).isTrue();

        // https alone: the JVM's default trust, no client certificate.
        CoordinationConfig bare = ConfigLoader.parse(file, base + "  etcd: [https://e:2379]\n").coordination().orElseThrow();
        assertThat(bare.https()).isTrue();
        assertThat(bare.tls()).isEqualTo(EtcdTls.NONE);
        CoordinationConfig plain = ConfigLoader.parse(file, base + "  etcd: [http://e:2379]\n").coordination().orElseThrow();
        assertThat(plain.https()).isFalse();
        assertThat(plain.tls()).isEqualTo(EtcdTls.NONE);
    }

    @Test
    void etcdTlsProblemsAreNamed(@TempDir Path dir) throws Exception {
        SelfSignedCertificate.create(dir.resolve("ca.pem"), dir.resolve("ca-key.pem"), "ca", List.of());
        SelfSignedCertificate.create(dir.resolve("client.pem"), dir.resolve("client-key.pem"), "cleave", List.of());
        Files.createDirectories(dir.resolve("keys"));
        Files.writeString(dir.resolve("notes.txt"), "not PEM\n");
        Path file = dir.resolve("cleave.yaml");
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\ncoordination:\n";

        assertThat(catchConfig(file, base + "  etcd: [https://a:2379, http://b:2379]\n").getMessage())
                .contains("coordination.etcd", "mixes http and https URLs");
        assertThat(catchConfig(file, base + "  etcd: [http://a:2379]\n  ca_file: ca.pem\n").getMessage())
                .contains("coordination.ca_file", "the etcd URLs are http");
        assertThat(catchConfig(file, base + "  etcd: [http://a:2379]\n  cert_file: client.pem\n  key_file: client.pem\n")
                .getMessage()).contains("coordination.cert_file", "coordination.key_file", "the etcd URLs are http");
        assertThat(catchConfig(file, base + "  etcd: [https://a:2379]\n  cert_file: client.pem\n").getMessage())
                .contains("coordination.key_file", "cert_file and key_file go together");
        assertThat(catchConfig(file, base + "  etcd: [https://a:2379]\n  key_file: client.pem\n").getMessage())
                .contains("coordination.cert_file", "cert_file and key_file go together");
        assertThat(catchConfig(file, base + "  etcd: [https://a:2379]\n  ca_file: missing-ca.pem\n").getMessage())
                .contains("coordination.ca_file", dir.resolve("missing-ca.pem") + " does not exist");
        assertThat(catchConfig(file, base + "  etcd: [https://a:2379]\n  cert_file: client.pem\n  key_file: keys\n")
                .getMessage()).contains("coordination.key_file", dir.resolve("keys") + " is not a readable file");
        assertThat(catchConfig(file, base + "  etcd: [https://a:2379]\n  ca_file: notes.txt\n").getMessage())
                .contains("coordination.ca_file", dir.resolve("notes.txt") + " holds no certificate: expected PEM");
        // A certificate where the key belongs, and a key where the certificate belongs.
        String swapped = catchConfig(file, base + "  etcd: [https://a:2379]\n  cert_file: client-key.pem\n"
                + "  key_file: client.pem\n").getMessage();
        assertThat(swapped).contains("coordination.key_file", dir.resolve("client.pem") + " holds no private key")
                .contains("coordination.cert_file", dir.resolve("client-key.pem") + " holds no certificate");
        assertThat(catchConfig(file, base + "  etcd: [https://a:2379]\n  ca: ca.pem\n").getMessage())
                .contains("coordination.ca");
    }

    @Test
    void replicationTlsIsRequiredOnceTheShardsListenBeyondLoopbackAndOffOnLoopbackByDefault() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(ConfigLoader.parse(FILE, base).listen().replicationTls()).isEqualTo(ReplicationTls.OFF);
        assertThat(ConfigLoader.parse(FILE, base + "server:\n  bind_address: 10.213.7.2\n").listen().replicationTls())
                .as("another host reaches the shards").isEqualTo(ReplicationTls.REQUIRED);
        assertThat(ConfigLoader.parse(FILE, base + "server:\n  replication_tls: required\n").listen().replicationTls())
                .isEqualTo(ReplicationTls.REQUIRED);
        assertThat(ConfigLoader.parse(FILE, base + "server:\n  bind_address: 10.213.7.2\n  replication_tls: off\n")
                .listen().replicationTls()).isEqualTo(ReplicationTls.OFF);
        assertThat(catchConfig(base + "server:\n  replication_tls: verify\n").getMessage())
                .contains("server.replication_tls", "'verify' is not a replication TLS setting: expected 'required' or 'off'");
    }

    @Test
    void shardsAndTheAdminApiListenOnLoopbackUnlessAnAddressIsGiven() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        CleaveConfig plain = ConfigLoader.parse(FILE, base);
        assertThat(plain.listen()).isEqualTo(ListenAddresses.DEFAULT);
        assertThat(plain.listen().shardBindOption()).isEqualTo("127.0.0.1");
        assertThat(plain.listen().adminUrl(plain.adminPort())).isEqualTo("http://127.0.0.1:6034");
        assertThat(plain.listen().reachableFromOtherHosts()).isFalse();

        CleaveConfig hostA = ConfigLoader.parse(FILE, base + "server:\n  bind_address: 10.213.7.2\nadmin:\n  listen: 10.213.7.2:7034\n");
        assertThat(hostA.listen().shardBindOption()).as("loopback stays for the proxy's TCP and local tools")
                .isEqualTo("127.0.0.1,10.213.7.2");
        assertThat(hostA.listen().shardHost()).isEqualTo("10.213.7.2");
        assertThat(hostA.adminPort()).isEqualTo(7034);
        assertThat(hostA.listen().adminUrl(hostA.adminPort())).isEqualTo("http://10.213.7.2:7034");

        CleaveConfig every = ConfigLoader.parse(FILE, base + "server:\n  bind_address: 0.0.0.0\n  advertise_host: db-a.example\n"
                + "admin:\n  listen: 0.0.0.0:6034\n");
        assertThat(every.listen().shardBindOption()).isEqualTo("0.0.0.0");
        assertThat(every.listen().shardHost()).isEqualTo("db-a.example");
        assertThat(every.listen().adminUrl(6034)).isEqualTo("http://db-a.example:6034");
    }

    @Test
    void listenAddressesThatOtherHostsCouldNotUseAreRefused() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(catchConfig(base + "server:\n  bind_address: 0.0.0.0\n").getMessage())
                .contains("server.bind_address", "set server.advertise_host");
        assertThat(catchConfig(base + "admin:\n  listen: 0.0.0.0:6034\n").getMessage())
                .contains("admin.listen", "set server.advertise_host");
        assertThat(catchConfig(base + "server:\n  bind_address: db-a.example\n").getMessage())
                .contains("server.bind_address", "not an IP address");
        assertThat(catchConfig(base + "server:\n  bind_address: 10.0.0.300\n").getMessage())
                .contains("server.bind_address", "not an IP address");
        assertThat(catchConfig(base + "admin:\n  listen: 10.0.0.1\n").getMessage()).contains("admin.listen", "host:port");
        assertThat(catchConfig(base + "admin:\n  listen: 10.0.0.1:6034\n  port: 6034\n").getMessage())
                .contains("admin.port", "not both");
        assertThat(catchConfig(base + "server:\n  bind_address: 10.0.0.1\n  advertise_host: \"a b\"\n").getMessage())
                .contains("server.advertise_host");
    }

    @Test
    void backupMaxRateDefaultsToNoBoundAndTakesWholeMegabytesPerSecond() {
        String base = "shards: 2\nproxy:\n  users: [{name: root, password: \"\"}]\n";
        assertThat(ConfigLoader.parse(FILE, base).backup().maxRateMbS()).isZero();
        assertThat(ConfigLoader.parse(FILE, base + "backup:\n  max_rate_mb_s: 40\n").backup().maxRateMbS()).isEqualTo(40);
        assertThat(catchConfig(base + "backup:\n  max_rate_mb_s: -1\n").getMessage()).contains("backup.max_rate_mb_s")
                .contains("out of range");
        assertThat(catchConfig(base + "backup:\n  max_rate_mb_s: fast\n").getMessage()).contains("not a whole number");

    }

    @Test
    void unknownKeyNamesFileLineFieldAndTheValidKeys() {
        assertError("""
                shards: 2
                buffer_pool: 256M
                bufer_pool_size: 1G
                proxy:
                  users: [{name: root, password: ""}]
                """, "/etc/cleave/test.yaml:3: bufer_pool_size: unknown key: expected one of shards, server, buffer_pool,"
                + " datadir_roots, log_dir, io_capacity, redo_write_rate, cpu_sets, proxy, admin, sharding, backup, standby,"
                + " coordination");
    }

    @Test
    void nestedUnknownKeyHasItsFieldPath() {
        assertError("""
                proxy:
                  listen: 127.0.0.1:6033
                  users:
                    - name: root
                      password: ""
                      pasword: x
                """, "/etc/cleave/test.yaml:6: proxy.users[0].pasword: unknown key: expected one of name, password,"
                + " mysql_native_password, caching_sha2_password, host, grants");
    }

    @Test
    void plainTextPasswordIsRefusedWithAdvice() {
        assertError("""
                proxy:
                  users:
                    - name: app
                      password: secret
                """, "/etc/cleave/test.yaml:4: proxy.users[0].password: a plain-text password is only allowed when empty: "
                + "store its hash instead (run 'cleave hash-password' and paste the mysql_native_password / caching_sha2_password lines)");
    }

    @Test
    void emptyPasswordOnAPublicAddressIsRefused() {
        assertError("""
                proxy:
                  listen: 0.0.0.0:6033
                  users:
                    - name: root
                      password: ""
                """, "/etc/cleave/test.yaml:5: proxy.users[0].password: user 'root' has an empty password and proxy.listen "
                + "0.0.0.0:6033 is not a loopback address: set a password hash or listen on 127.0.0.1");
    }

    @Test
    void badHashFormsAreNamed() {
        assertError("""
                proxy:
                  users:
                    - name: app
                      mysql_native_password: "2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19"
                """, "/etc/cleave/test.yaml:4: proxy.users[0].mysql_native_password: expected '*' followed by 40 hex digits,"
                + " as in mysql.user (SHA1(SHA1(password)))");
        assertError("""
                proxy:
                  users:
                    - name: app
                      caching_sha2_password: "$A$005$tooshort"
                """, "/etc/cleave/test.yaml:4: proxy.users[0].caching_sha2_password: expected MySQL's SHA-256 crypt form: "
                + "'$A$005$', a 20-character salt and a 43-character hash");
    }

    @Test
    void badSizeSaysWhatWouldBeValid() {
        assertError("buffer_pool: 1.5G\nproxy: {users: [{name: root, password: \"\"}]}\n",
                "/etc/cleave/test.yaml:1: buffer_pool: '1.5G' is not a size: expected a whole number with an optional"
                        + " K, M, G or T suffix, e.g. 512M or 4G");
    }

    @Test
    void shardCountOutOfRange() {
        assertError("shards: 0\nproxy: {users: [{name: root, password: \"\"}]}\n",
                "/etc/cleave/test.yaml:1: shards: 0 is out of range: expected 1..64");
    }

    @Test
    void overlappingRangesNameBothLines() {
        assertError("""
                shards: 2
                proxy: {users: [{name: root, password: ""}]}
                sharding:
                  keyspaces:
                    - name: w
                      function: range
                      ranges:
                        - {from: 1, to: 10, shard: 0}
                        - {from: 10, to: 20, shard: 1}
                """, "/etc/cleave/test.yaml:9: sharding.keyspaces[0].ranges[1]: range 10-20 overlaps range 1-10 (line 8)");
    }

    @Test
    void unknownKeyspaceOfATableListsTheDefinedOnes() {
        assertError("""
                shards: 2
                proxy: {users: [{name: root, password: ""}]}
                sharding:
                  keyspaces:
                    - {name: sbtest, function: hash, buckets: 16}
                  tables:
                    - {name: t1, keyspace: sbtset, column: id}
                """, "/etc/cleave/test.yaml:7: sharding.tables[0].keyspace: keyspace 'sbtset' is not defined: expected one of sbtest");
    }

    @Test
    void homeShardOutOfRange() {
        assertError("""
                shards: 2
                proxy: {users: [{name: root, password: ""}]}
                sharding:
                  default_shard: 2
                """, "/etc/cleave/test.yaml:4: sharding.default_shard: shard 2 does not exist: expected one of 0..1");
        assertError("""
                shards: 2
                proxy: {users: [{name: root, password: ""}]}
                sharding:
                  tables:
                    - {name: settings, type: unsharded, shard: 5}
                """, "/etc/cleave/test.yaml:5: sharding.tables[0].shard: shard 5 does not exist: expected one of 0..1");
    }

    @Test
    void unknownFunctionListsTheRegisteredOnes() {
        assertError("""
                proxy: {users: [{name: root, password: ""}]}
                sharding:
                  keyspaces:
                    - {name: k, function: modulo}
                """, "/etc/cleave/test.yaml:4: sharding.keyspaces[0].function: 'modulo' is unknown: expected one of hash, range");
    }

    @Test
    void everyProblemIsReportedAtOnce() {
        ConfigException e = catchConfig("shards: 100\nio_capacity: 5\nproxy: {users: [{name: root, password: \"\"}]}\nextra: 1\n");
        assertThat(e.errors()).extracting(ConfigError::field).containsExactlyInAnyOrder("shards", "io_capacity", "extra");
    }

    @Test
    void syntaxErrorsHaveALine() {
        ConfigException e = catchConfig("shards: 2\nproxy: [\n");
        assertThat(e.errors()).singleElement().satisfies(err -> {
            assertThat(err.field()).isEqualTo("(syntax)");
            assertThat(err.line()).isGreaterThan(1);
        });
    }

    @Test
    void cpuSetsNeedOnePerShard() {
        assertError("shards: 2\ncpu_sets: [\"0-3\"]\nproxy: {users: [{name: root, password: \"\"}]}\n",
                "/etc/cleave/test.yaml:2: cpu_sets: has 1 entries for 2 shards: expected none, auto, or exactly one per shard");
    }

    @Test
    void cpuSetsAreAutoAListOrNone() {
        String users = "proxy: {users: [{name: root, password: \"\"}]}\n";
        assertThat(ConfigLoader.parse(FILE, "shards: 2\ncpu_sets: auto\n" + users).cpuSets()).isInstanceOf(CpuSets.Auto.class);
        assertThat(ConfigLoader.parse(FILE, "shards: 2\n" + users).cpuSets()).isInstanceOf(CpuSets.Unpinned.class);
        assertThat(ConfigLoader.parse(FILE, "shards: 2\ncpu_sets: [\"0-3\", \"4,6\"]\n" + users).cpuSets())
                .isEqualTo(new CpuSets.Explicit(java.util.List.of("0-3", "4,6")));
        assertError("shards: 2\ncpu_sets: all\n" + users, "/etc/cleave/test.yaml:2: cpu_sets: 'all' is not valid: expected auto,"
                + " or a list of one CPU list per shard such as [\"0-7\", \"8-15\"]");
        assertError("shards: 1\ncpu_sets: [\"0-\"]\n" + users,
                "/etc/cleave/test.yaml:2: cpu_sets[0]: '0-' is not a CPU list: expected e.g. \"0-7\" or \"0,2,4-6\"");
    }

    @Test
    void ioCapacityIsAutoByDefaultAndRedoWriteRateIsASize() {
        String users = "proxy: {users: [{name: root, password: \"\"}]}\n";
        CleaveConfig defaults = ConfigLoader.parse(FILE, users);
        assertThat(defaults.ioCapacity()).isEmpty();
        assertThat(defaults.redoWriteRate()).isEmpty();
        CleaveConfig set = ConfigLoader.parse(FILE, "io_capacity: 4000\nredo_write_rate: 20M\n" + users);
        assertThat(set.ioCapacity()).hasValue(4000);
        assertThat(set.redoWriteRate()).contains(20L << 20);
        assertThat(ConfigLoader.parse(FILE, "io_capacity: auto\n" + users).ioCapacity()).isEmpty();
        assertError("io_capacity: fast\n" + users, "/etc/cleave/test.yaml:1: io_capacity: 'fast' is not valid: expected auto"
                + " (from each device's class) or a whole number of I/O operations per second");
        assertError("redo_write_rate: lots\n" + users, "/etc/cleave/test.yaml:1: redo_write_rate: 'lots' is not a size: expected"
                + " a whole number with an optional K, M, G or T suffix, e.g. 512M or 4G");
    }

    @Test
    void hashesAreAccepted() {
        CleaveConfig config = ConfigLoader.parse(FILE, """
                proxy:
                  listen: 0.0.0.0:6033
                  users:
                    - name: app
                      mysql_native_password: "*2470C0C06DEE42FD1618BB99005ADCA2EC9D1E19"
                """);
        assertThat(config.proxy().users().get(0).hasEmptyPassword()).isFalse();
    }

    private static void assertError(String yaml, String expected) {
        assertThat(catchConfig(yaml).getMessage()).isEqualTo(expected);
    }

    private static ConfigException catchConfig(String yaml) {
        return catchConfig(FILE, yaml);
    }

    private static ConfigException catchConfig(Path file, String yaml) {
        try {
            ConfigLoader.parse(file, yaml);
        } catch (ConfigException e) {
            return e;
        }
        throw new AssertionError("config was accepted:\n" + yaml);
    }

    @Test
    void sizesParseAndFormat() {
        assertThat(ByteSize.parse("512M")).isEqualTo(512L << 20);
        assertThat(ByteSize.parse("4g")).isEqualTo(4L << 30);
        assertThat(ByteSize.parse("1024")).isEqualTo(1024);
        assertThat(ByteSize.format(256L << 20)).isEqualTo("256M");
        assertThat(ByteSize.format(1000)).isEqualTo("1000");
        assertThatThrownBy(() -> ByteSize.parse("lots")).hasMessageContaining("expected a whole number");
    }
}
