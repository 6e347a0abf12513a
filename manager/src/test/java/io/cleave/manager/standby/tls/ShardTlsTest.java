package io.cleave.manager.standby.tls;

import io.cleave.manager.config.ReplicationTls;
import io.cleave.manager.home.CleaveHome;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.KeyStore;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ShardTlsTest {

    @TempDir
    Path dir;

    @Test
    void requiredMakesTheHomesCertificateForItsNamesOnceAndWhereTheServersReadIt() throws Exception {
        CleaveHome home = home("a");
        ShardTls tls = ShardTls.of(home);
        List<String> names = List.of("localhost", "127.0.0.1", "10.213.7.2");
        assertThat(tls.install(ReplicationTls.REQUIRED, names)).isTrue();
        assertThat(tls.install(ReplicationTls.REQUIRED, names)).as("made once").isFalse();
        String pem = tls.certificate();
        assertThat(Files.readString(home.shardTlsCertificate())).isEqualTo(pem);
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(home.shardTlsKey()))).isEqualTo("rw-------");
        X509Certificate cert = parse(pem);
        // An address is named as a DNS name too: WolfSSL (MariaDB's own builds) matches the host against DNS names only.
        assertThat(cert.getSubjectAlternativeNames()).extracting(n -> n.get(0) + ":" + n.get(1))
                .contains("2:10.213.7.2", "7:10.213.7.2", "2:127.0.0.1", "7:127.0.0.1", "2:localhost");
        assertThat(tls.setting()).isEqualTo(ReplicationTls.REQUIRED);
        assertThat(tls.accountRequirement()).isEqualTo("REQUIRE SSL");

        assertThat(tls.install(ReplicationTls.REQUIRED, List.of("localhost", "127.0.0.1", "10.213.7.9")))
                .as("the shards are reached at another address: a certificate naming it").isTrue();
        assertThat(tls.certificate()).isNotEqualTo(pem);

        tls.install(ReplicationTls.OFF, names);
        assertThat(tls.certificate()).as("the shards offer none").isNull();
        assertThat(tls.accountRequirement()).isEqualTo("REQUIRE NONE");
    }

    @Test
    void aReplicaVerifiesThePrimarysCertificateAndRefusesAPrimaryWithoutTlsWhenItRequiresIt() throws Exception {
        ShardTls a = ShardTls.of(home("a"));
        a.install(ReplicationTls.REQUIRED, List.of("localhost", "127.0.0.1"));
        CleaveHome bHome = home("b");
        ShardTls b = ShardTls.of(bHome);
        b.install(ReplicationTls.REQUIRED, List.of("localhost", "127.0.0.1"));

        ReplicaLink link = b.toPrimary(a.certificate());
        assertThat(link.encrypted()).isTrue();
        assertThat(Files.readString(b.peerCertificateForServers())).isEqualTo(a.certificate());
        assertThat(link.changeMasterOptions()).isEqualTo("MASTER_SSL = 1, MASTER_SSL_CA = '"
                + b.peerCertificateForServers() + "', MASTER_SSL_VERIFY_SERVER_CERT = 1");

        assertThatThrownBy(() -> b.toPrimary(null)).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("the primary's shards offer no TLS");
        assertThat(b.toPrimary(null, ReplicationTls.OFF)).isEqualTo(ReplicaLink.PLAIN);
        assertThat(ReplicaLink.PLAIN.changeMasterOptions()).isEqualTo("MASTER_SSL = 0");
        assertThatThrownBy(() -> b.toPrimary("not a certificate")).isInstanceOf(IllegalArgumentException.class);

        // The run directory is made again at a start (it may live in /tmp): the kept certificate goes back there.
        Files.delete(b.peerCertificateForServers());
        b.install(ReplicationTls.REQUIRED, List.of("localhost", "127.0.0.1"));
        assertThat(Files.readString(b.peerCertificateForServers())).isEqualTo(a.certificate());
    }

    @Test
    void jdbcConnectionsToThePrimaryVerifyItsCertificateThroughATrustStore() throws Exception {
        ShardTls a = ShardTls.of(home("a"));
        a.install(ReplicationTls.REQUIRED, List.of("localhost", "127.0.0.1"));
        ShardTls b = ShardTls.of(home("b"));
        assertThat(b.jdbcOptions(null)).isEqualTo("sslMode=DISABLED");
        String options = b.jdbcOptions(a.certificate());
        assertThat(options).startsWith("sslMode=VERIFY_IDENTITY&trustCertificateKeyStoreUrl=file:")
                .contains("trustCertificateKeyStoreType=PKCS12");
        Path store = Path.of(java.net.URI.create(options.replaceAll(".*trustCertificateKeyStoreUrl=([^&]+).*", "$1")));
        KeyStore ks = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(store)) {
            ks.load(in, "cleave".toCharArray());
        }
        assertThat(ks.getCertificate("peer-shards")).isEqualTo(parse(a.certificate()));
    }

    @Test
    void statusSaysInWordsWhyTlsToThePrimaryFailed() {
        assertThat(ReplicaTlsState.of("Yes", "Yes")).isEqualTo(ReplicaTlsState.VERIFIED);
        assertThat(ReplicaTlsState.of("Yes", "No")).isEqualTo(ReplicaTlsState.UNVERIFIED);
        assertThat(ReplicaTlsState.of("No", "Yes")).isEqualTo(ReplicaTlsState.OFF);
        String server = "error connecting to master 'cleave_repl@10.0.0.1:3307' - retry-time: 1  message: SSL connection error: ok";
        assertThat(ReplicaTlsState.VERIFIED.explain(server)).startsWith("TLS to the primary's shard failed: its"
                + " certificate is not the one this home holds for it").endsWith(server);
        assertThat(ReplicaTlsState.OFF.explain(server)).isEqualTo(server);
        assertThat(ReplicaTlsState.VERIFIED.explain("Access denied for user")).isEqualTo("Access denied for user");
        assertThat(ReplicaTlsState.VERIFIED.explain(null)).isNull();
    }

    private CleaveHome home(String name) {
        CleaveHome home = new CleaveHome(dir.resolve(name));
        home.createDirectories();
        return home;
    }

    private static X509Certificate parse(String pem) throws Exception {
        return (X509Certificate) CertificateFactory.getInstance("X.509")
                .generateCertificate(new ByteArrayInputStream(pem.getBytes(StandardCharsets.US_ASCII)));
    }
}
