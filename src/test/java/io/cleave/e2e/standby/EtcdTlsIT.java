package io.cleave.e2e.standby;

import io.cleave.e2e.support.CleaveTestHome;
import io.cleave.e2e.support.EtcdCertificates;
import io.cleave.e2e.support.EtcdCluster;
import io.cleave.e2e.support.RunningDaemon;
import io.cleave.manager.config.CoordinationConfig;
import io.cleave.manager.config.EtcdTls;
import io.cleave.manager.coordination.CoordinationReport;
import io.cleave.manager.coordination.EtcdPairStore;
import io.cleave.manager.coordination.EtcdUnavailable;
import io.cleave.manager.coordination.PairState;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A pair's coordination through etcd over TLS: three members on loopback with https client URLs, a certificate for
 * IP 127.0.0.1 and {@code --client-cert-auth} ({@link EtcdCluster#startTls}). One daemon of one shard, the
 * smallest home that claims the primary's lease:
 * <ul>
 * <li>with the CA and its client certificate it holds the lease at epoch 1, through all three members' URLs;</li>
 * <li>started again without a client certificate it is refused, stays fenced, and its reason (status and
 *     /v1/coordination) says etcd requires a client certificate;</li>
 * <li>started again trusting another CA it is refused, and its reason says the member's certificate is not signed
 *     by a CA it trusts, naming that CA file;</li>
 * <li>the pair's etcd client reaching the members as localhost (their certificates name 127.0.0.1) is refused, and
 *     says the certificate does not name the address;</li>
 * <li>the pair's etcd client with http URLs to these members says they speak TLS, and with https URLs to plain
 *     members says they speak plain http.</li>
 * </ul>
 */
class EtcdTlsIT {

    private static final String CLUSTER = "tls-it";

    @Test
    void aPrimaryHoldsItsLeaseThroughTlsEtcdAndARefusedClientSaysWhy() throws Exception {
        Assumptions.assumeTrue(EtcdCluster.installed(), "etcd is not installed: scripts/test installs Debian's"
                + " etcd-server");
        Assumptions.assumeTrue(EtcdCertificates.opensslInstalled(), "the openssl CLI is not installed: it makes the"
                + " test's certificates");
        Path work = Files.createTempDirectory(Path.of("/tmp"), "cleave-etcdtls-");
        try (EtcdCluster etcd = EtcdCluster.startTls(Files.createDirectory(work.resolve("etcd")))) {
            EtcdCertificates tls = etcd.certificates();
            assertThat(etcd.urls()).allSatisfy(url -> assertThat(url).startsWith("https://127.0.0.1:"));
            String coordination = EtcdCluster.yaml(etcd.urls(), CLUSTER, 3);
            try (CleaveTestHome home = CleaveTestHome.builder().shards(1).extraYaml(coordination + "  ca_file: "
                    + tls.ca() + "\n  cert_file: " + tls.client() + "\n  key_file: " + tls.clientKey() + "\n").create()) {
                try (RunningDaemon daemon = home.start()) {
                    CoordinationReport held = await(daemon, r -> r.holdsLease(), "holds the primary's lease");
                    assertThat(held.state()).isEqualTo(PairState.PRIMARY);
                    assertThat(held.epoch()).isEqualTo(1);
                    assertThat(held.primary()).isNotNull();
                    assertThat(held.primary().epoch()).isEqualTo(1);
                    assertThat(held.reason()).isNull();
                    System.out.println("EtcdTlsIT: through TLS etcd: " + held);
                }

                // No client certificate: etcd's --client-cert-auth refuses the handshake.
                Files.writeString(home.configFile(), Files.readString(home.configFile())
                        .replace("  cert_file: " + tls.client() + "\n", "")
                        .replace("  key_file: " + tls.clientKey() + "\n", ""));
                try (RunningDaemon daemon = home.start()) {
                    CoordinationReport refused = await(daemon, r -> r.reason() != null
                            && r.reason().contains("TLS to etcd fails"), "explains why TLS to etcd fails");
                    System.out.println("EtcdTlsIT: without a client certificate: " + refused.reason());
                    assertThat(refused.state()).isEqualTo(PairState.FENCED);
                    assertThat(refused.holdsLease()).isFalse();
                    assertThat(refused.reason()).contains("cannot reach etcd to claim the primary's lease")
                            .contains("etcd member 127.0.0.1:")
                            .contains("requires a client certificate (etcd's --client-cert-auth)")
                            .contains("coordination.cert_file and key_file");
                    assertThat(coordinationText(daemon)).contains("requires a client certificate");
                }

                // The client certificate again, but trusting another CA: the members' certificates are refused.
                Files.writeString(home.configFile(), Files.readString(home.configFile())
                        .replace("  ca_file: " + tls.ca() + "\n", "  ca_file: " + tls.otherCa() + "\n  cert_file: "
                                + tls.client() + "\n  key_file: " + tls.clientKey() + "\n"));
                try (RunningDaemon daemon = home.start()) {
                    CoordinationReport refused = await(daemon, r -> r.reason() != null
                            && r.reason().contains("TLS to etcd fails"), "explains why TLS to etcd fails");
                    System.out.println("EtcdTlsIT: trusting another CA: " + refused.reason());
                    assertThat(refused.state()).isEqualTo(PairState.FENCED);
                    assertThat(refused.reason()).contains("its certificate (CN=cleave-it-etcd-member, issued by"
                            + " CN=cleave-it-etcd-ca) is not signed by a CA this daemon trusts (coordination.ca_file "
                            + tls.otherCa() + ")");
                    assertThat(coordinationText(daemon)).contains("is not signed by a CA this daemon trusts");
                }
            }

            // The members' certificates name IP 127.0.0.1 only: reached as localhost, they are refused.
            EtcdTls client = new EtcdTls(Optional.of(tls.ca()), Optional.of(tls.client()), Optional.of(tls.clientKey()));
            List<String> byName = etcd.urls().stream().map(u -> u.replace("127.0.0.1", "localhost")).toList();
            String misnamed = refusal(new CoordinationConfig(byName, CLUSTER, Duration.ofSeconds(3),
                    CoordinationConfig.Rejoin.MANUAL, client), "does not name");
            System.out.println("EtcdTlsIT: members reached as localhost: " + misnamed);
            assertThat(misnamed).contains("TLS to etcd fails: etcd member localhost:").contains("its certificate"
                    + " (CN=cleave-it-etcd-member) does not name localhost, the address it was reached at");

            // The scheme wrong either way: http URLs to these TLS members, https URLs to plain ones.
            List<String> http = etcd.urls().stream().map(u -> u.replace("https://", "http://")).toList();
            String wantsTls = refusal(new CoordinationConfig(http, CLUSTER, Duration.ofSeconds(3)), " speaks ");
            System.out.println("EtcdTlsIT: http URLs to TLS members: " + wantsTls);
            assertThat(wantsTls).contains("etcd member 127.0.0.1:").contains("speaks TLS, and its URL is http:"
                    + " expected https:// URLs");
            try (EtcdCluster plain = EtcdCluster.start(Files.createDirectory(work.resolve("plain-etcd")))) {
                List<String> https = plain.urls().stream().map(u -> u.replace("http://", "https://")).toList();
                String wantsHttp = refusal(new CoordinationConfig(https, CLUSTER, Duration.ofSeconds(3),
                        CoordinationConfig.Rejoin.MANUAL, client), " speaks ");
                System.out.println("EtcdTlsIT: https URLs to plain members: " + wantsHttp);
                assertThat(wantsHttp).contains("TLS to etcd fails: etcd member 127.0.0.1:")
                        .contains("as a member that speaks plain http does: expected http:// URLs");
            }
        } finally {
            CleaveTestHome.deleteTree(work);
        }
    }

    /** What the pair's etcd client says once a read through {@code config} fails, explained (saying {@code marker}). */
    private static String refusal(CoordinationConfig config, String marker) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        try (EtcdPairStore store = new EtcdPairStore(config, Duration.ofMillis(750))) {
            while (true) {
                try {
                    throw new AssertionError("etcd answered through " + config + ": " + store.read());
                } catch (EtcdUnavailable e) {
                    if (e.getMessage().contains(marker)) {
                        return e.getMessage();
                    }
                    assertThat(System.nanoTime()).as("the failure explained within 20 s: %s", e.getMessage())
                            .isLessThan(deadline);
                }
                Thread.sleep(200);
            }
        }
    }

    private static CoordinationReport await(RunningDaemon daemon, Predicate<CoordinationReport> condition, String what)
            throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(40);
        CoordinationReport report = daemon.daemon().statusReport().coordination();
        while (!condition.test(report)) {
            assertThat(System.nanoTime()).as("the daemon %s within 40 s: %s", what, report).isLessThan(deadline);
            Thread.sleep(200);
            report = daemon.daemon().statusReport().coordination();
        }
        return report;
    }

    /** What GET /v1/coordination (behind {@code cleave status}) answers. */
    private static String coordinationText(RunningDaemon daemon) throws Exception {
        HttpResponse<String> response = daemon.admin("GET", "/v1/coordination", true);
        assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
        return response.body();
    }
}
