package io.cleave.proxy.tls;

import org.bouncycastle.asn1.x500.X500Name;
import org.bouncycastle.asn1.x509.BasicConstraints;
import org.bouncycastle.asn1.x509.Extension;
import org.bouncycastle.asn1.x509.GeneralName;
import org.bouncycastle.asn1.x509.GeneralNames;
import org.bouncycastle.cert.X509CertificateHolder;
import org.bouncycastle.cert.jcajce.JcaX509v3CertificateBuilder;
import org.bouncycastle.operator.OperatorCreationException;
import org.bouncycastle.operator.jcajce.JcaContentSignerBuilder;

import java.io.IOException;
import java.io.Writer;
import java.math.BigInteger;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Date;
import java.util.List;

/**
 * Makes the proxy's TLS certificate when none is configured: RSA 2048, valid ten years, for
 * localhost and 127.0.0.1, written as PEM files (the key readable by its owner only). Clients
 * verify it by pointing their CA option at the certificate file.
 */
public final class SelfSignedCertificate {

    private SelfSignedCertificate() {
    }

    /** Writes a new certificate and key unless both files already exist; true when it wrote them. */
    public static boolean createIfMissing(Path certificate, Path privateKey, String commonName) throws IOException {
        if (Files.exists(certificate) && Files.exists(privateKey)) {
            return false;
        }
        write(certificate, privateKey, commonName, List.of(
                new GeneralName(GeneralName.dNSName, "localhost"),
                new GeneralName(GeneralName.iPAddress, "127.0.0.1")));
        return true;
    }

    /**
     * Writes a new certificate and key for {@code hosts} (names and IP addresses). An address is named twice, as an
     * IP address and as a DNS name: TLS libraries without IP address matching (WolfSSL, which MariaDB's own builds
     * use) compare the host a client connects to with the DNS names only.
     */
    public static void create(Path certificate, Path privateKey, String commonName, List<String> hosts) throws IOException {
        List<GeneralName> names = new ArrayList<>();
        for (String host : hosts) {
            names.add(new GeneralName(GeneralName.dNSName, host));
            if (host.matches("[0-9.]+") || host.contains(":")) {
                names.add(new GeneralName(GeneralName.iPAddress, host));
            }
        }
        write(certificate, privateKey, commonName, names);
    }

    private static void write(Path certificate, Path privateKey, String commonName, List<GeneralName> names)
            throws IOException {
        try {
            KeyPairGenerator generator = KeyPairGenerator.getInstance("RSA");
            generator.initialize(2048, new SecureRandom());
            KeyPair keys = generator.generateKeyPair();
            Instant now = Instant.now();
            X500Name name = new X500Name("CN=" + commonName);
            JcaX509v3CertificateBuilder builder = new JcaX509v3CertificateBuilder(name,
                    new BigInteger(64, new SecureRandom()), Date.from(now.minus(Duration.ofDays(1))),
                    Date.from(now.plus(Duration.ofDays(3650))), name, keys.getPublic());
            builder.addExtension(Extension.basicConstraints, true, new BasicConstraints(false));
            builder.addExtension(Extension.subjectAlternativeName, false,
                    new GeneralNames(names.toArray(GeneralName[]::new)));
            X509CertificateHolder holder = builder.build(
                    new JcaContentSignerBuilder("SHA256withRSA").build(keys.getPrivate()));
            Files.createDirectories(certificate.toAbsolutePath().getParent());
            writePem(certificate, "CERTIFICATE", holder.getEncoded(), false);
            writePem(privateKey, "PRIVATE KEY", keys.getPrivate().getEncoded(), true);
        } catch (GeneralSecurityException | OperatorCreationException e) {
            throw new IOException("cannot create a self-signed certificate: " + e.getMessage(), e);
        }
    }

    private static void writePem(Path path, String type, byte[] der, boolean secret) throws IOException {
        String base64 = Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(der);
        Path tmp = path.resolveSibling(path.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        if (secret) {
            Files.createFile(tmp, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        }
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.US_ASCII, StandardOpenOption.CREATE,
                StandardOpenOption.TRUNCATE_EXISTING)) {
            w.write("-----BEGIN " + type + "-----\n" + base64 + "\n-----END " + type + "-----\n");
        }
        Files.move(tmp, path, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }
}
