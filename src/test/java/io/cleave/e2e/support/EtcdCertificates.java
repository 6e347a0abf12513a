package io.cleave.e2e.support;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Certificates for a TLS etcd cluster on loopback, made with the openssl CLI: a CA, a member certificate for IP
 * 127.0.0.1 (the address the clients' URLs name), a client certificate of that CA, and a second CA that signed
 * neither, for a client that trusts the wrong one. The client key is in the SEC1 form ({@code BEGIN EC PRIVATE KEY})
 * that {@code openssl ecparam -genkey} writes, the member's in PKCS#8.
 */
public record EtcdCertificates(Path ca, Path member, Path memberKey, Path client, Path clientKey, Path otherCa) {

    private static final String CURVE = "ec_paramgen_curve:prime256v1";

    /** The openssl CLI, when installed. */
    public static boolean opensslInstalled() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            if (Files.isExecutable(Path.of(dir, "openssl"))) {
                return true;
            }
        }
        return false;
    }

    static EtcdCertificates create(Path dir) throws IOException, InterruptedException {
        Files.createDirectories(dir);
        EtcdCertificates c = new EtcdCertificates(dir.resolve("ca.pem"), dir.resolve("member.pem"),
                dir.resolve("member-key.pem"), dir.resolve("client.pem"), dir.resolve("client-key.pem"),
                dir.resolve("other-ca.pem"));
        openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", CURVE, "-nodes", "-keyout", "ca-key.pem",
                "-out", "ca.pem", "-days", "2", "-subj", "/CN=cleave-it-etcd-ca");
        openssl(dir, "req", "-x509", "-newkey", "ec", "-pkeyopt", CURVE, "-nodes", "-keyout", "other-ca-key.pem",
                "-out", "other-ca.pem", "-days", "2", "-subj", "/CN=cleave-it-other-ca");
        Files.writeString(dir.resolve("member.ext"), "subjectAltName=IP:127.0.0.1\nextendedKeyUsage=serverAuth\n");
        openssl(dir, "req", "-new", "-newkey", "ec", "-pkeyopt", CURVE, "-nodes", "-keyout", "member-key.pem",
                "-out", "member.csr", "-subj", "/CN=cleave-it-etcd-member");
        openssl(dir, "x509", "-req", "-in", "member.csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-set_serial", "2",
                "-days", "2", "-extfile", "member.ext", "-out", "member.pem");
        Files.writeString(dir.resolve("client.ext"), "extendedKeyUsage=clientAuth\n");
        openssl(dir, "ecparam", "-genkey", "-name", "prime256v1", "-noout", "-out", "client-key.pem");
        openssl(dir, "req", "-new", "-key", "client-key.pem", "-out", "client.csr", "-subj", "/CN=cleave-it-client");
        openssl(dir, "x509", "-req", "-in", "client.csr", "-CA", "ca.pem", "-CAkey", "ca-key.pem", "-set_serial", "3",
                "-days", "2", "-extfile", "client.ext", "-out", "client.pem");
        return c;
    }

    private static void openssl(Path dir, String... args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("openssl"));
        command.addAll(List.of(args));
        Path log = dir.resolve("openssl.log");
        Process p = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException(String.join(" ", command) + " failed: " + Files.readString(log));
        }
    }
}
